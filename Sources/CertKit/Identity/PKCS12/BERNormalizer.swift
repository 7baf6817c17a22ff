/// Rewrites BER as DER-shaped bytes that ``DERReader`` reads: indefinite lengths become definite minimal ones and
/// constructed OCTET STRINGs become one primitive OCTET STRING of their pieces. Used only where files made by other
/// tools may legitimately be BER (PKCS#12, which NSS and Bouncy Castle write with indefinite lengths); nothing is
/// reordered or otherwise changed. Nesting is bounded by ``DERReader/maximumDepth``, and the output is never longer
/// than the input by more than a few octets per indefinite-length element.
enum BERNormalizer {
    static let malformed = CertificateDecodingError(.malformedDER, "malformed BER")

    /// The DER-shaped form of `bytes` (one or more elements at the top level).
    static func normalize(_ bytes: [UInt8]) throws(CertificateDecodingError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        while position < bytes.count {
            try element(bytes, &position, end: bytes.count, depth: 0, into: &output)
        }
        return output
    }

    /// One element at `position` (moved past it), appended to `output`. `end` is the end of its container; for
    /// an indefinite-length container it is where the container's bytes could end at most.
    private static func element(
        _ bytes: [UInt8], _ position: inout Int, end: Int, depth: Int, into output: inout [UInt8]
    ) throws(CertificateDecodingError) {
        guard depth <= DERReader.maximumDepth else {
            throw CertificateDecodingError(.malformedDER, "BER nested deeper than \(DERReader.maximumDepth) levels")
        }
        guard position < end else { throw malformed }
        let tag = bytes[position]
        guard tag & 0x1F != 0x1F else { throw CertificateDecodingError(.malformedDER, "unsupported multi-byte BER tag") }
        position += 1
        guard position < end else { throw malformed }
        let first = bytes[position]
        position += 1
        var contentEnd: Int?
        if first < 0x80 {
            contentEnd = position + Int(first)
        } else if first != 0x80 {
            let count = Int(first & 0x7F)
            guard count <= 4, count <= end - position else { throw malformed }
            var length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[position])
                position += 1
            }
            contentEnd = position + length
        } else {
            guard tag & 0x20 != 0 else { throw malformed }  // indefinite length needs a constructed encoding
        }
        if let contentEnd { guard contentEnd <= end else { throw malformed } }
        let limit = contentEnd ?? end
        guard tag & 0x20 != 0 else {
            // Primitive: copied as is.
            append(tag, bytes[position..<limit], into: &output)
            position = limit
            return
        }
        var contents: [UInt8] = []
        while true {
            if let contentEnd {
                if position == contentEnd { break }
            } else if position + 2 <= end, bytes[position] == 0, bytes[position + 1] == 0 {
                position += 2  // end-of-contents
                break
            }
            try element(bytes, &position, end: limit, depth: depth + 1, into: &contents)
        }
        if tag == DERTag.octetString | 0x20 {
            // A constructed OCTET STRING: the concatenation of its (now primitive) pieces.
            var joined: [UInt8] = []
            try DERReader.read(contents) { reader throws(CertificateDecodingError) in
                while let piece = try reader.next() {
                    guard piece.tag == DERTag.octetString else { throw malformed }
                    joined.append(contentsOf: piece.contents)
                }
            }
            append(DERTag.octetString, joined[...], into: &output)
        } else {
            append(tag, contents[...], into: &output)
        }
    }

    private static func append(_ tag: UInt8, _ contents: ArraySlice<UInt8>, into output: inout [UInt8]) {
        output.append(tag)
        if contents.count < 0x80 {
            output.append(UInt8(contents.count))
        } else {
            var octets: [UInt8] = []
            var value = contents.count
            while value > 0 {
                octets.insert(UInt8(value & 0xFF), at: 0)
                value >>= 8
            }
            output.append(0x80 | UInt8(octets.count))
            output.append(contentsOf: octets)
        }
        output.append(contentsOf: contents)
    }
}
