import Foundation

/// Decoding of the primitive values X.509 uses. Each checks the DER rules for its type.
extension DERNode {
    /// A BOOLEAN: one octet, 0x00 or 0xFF.
    func boolean() throws(CertificateDecodingError) -> Bool {
        guard tag == DERTag.boolean, contentLength == 1 else {
            throw CertificateDecodingError(.malformedDER, "invalid BOOLEAN")
        }
        switch contentByte(0) {
        case 0x00: return false
        case 0xFF: return true
        default: throw CertificateDecodingError(.malformedDER, "BOOLEAN is neither 0x00 nor 0xFF")
        }
    }

    /// The content octets of an INTEGER (or an implicitly tagged one), checked for minimal encoding.
    func integerBytes() throws(CertificateDecodingError) -> [UInt8] {
        Array(try integerContents())
    }

    /// The content octets of an INTEGER, checked as ``integerBytes()`` checks them, as a view (no copy; never empty).
    func integerContents() throws(CertificateDecodingError) -> UnsafeBufferPointer<UInt8> {
        guard contentLength >= 1 else { throw CertificateDecodingError(.malformedDER, "empty INTEGER") }
        if contentLength >= 2 {
            let first = contentByte(0), second = contentByte(1)
            if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
                throw CertificateDecodingError(.malformedDER, "INTEGER is not minimally encoded")
            }
        }
        return contents
    }

    /// A small non-negative INTEGER (for versions and path lengths).
    func smallInteger() throws(CertificateDecodingError) -> Int {
        let bytes = try integerContents()
        guard bytes[bytes.startIndex] & 0x80 == 0 else { throw CertificateDecodingError(.malformedDER, "negative INTEGER where a count was expected") }
        guard bytes.count <= 4 else { throw CertificateDecodingError(.malformedDER, "INTEGER too large") }
        var value = 0
        for byte in bytes { value = (value << 8) | Int(byte) }
        return value
    }

    /// An OBJECT IDENTIFIER in dotted form.
    func objectIdentifier() throws(CertificateDecodingError) -> String {
        guard tag == DERTag.objectIdentifier else {
            throw CertificateDecodingError(.malformedDER, "expected OBJECT IDENTIFIER, found \(DERTag.describe(tag))")
        }
        if let known = KnownOIDs.lookup(contents) { return known }
        guard let text = OIDText.dotted(contents) else {
            throw CertificateDecodingError(.malformedDER, "invalid OBJECT IDENTIFIER encoding")
        }
        return text
    }

    /// A BIT STRING's bytes (without the unused-bits octet) and the number of unused bits.
    func bitString() throws(CertificateDecodingError) -> (bytes: [UInt8], unusedBits: Int) {
        let value = try bitStringContents()
        return (Array(value.bytes), value.unusedBits)
    }

    /// A BIT STRING checked as ``bitString()`` checks it, its bytes as a view of the lent bytes (no copy); they
    /// start at offset `contentStart + 1`.
    func bitStringContents() throws(CertificateDecodingError) -> (bytes: UnsafeBufferPointer<UInt8>, unusedBits: Int) {
        guard contentLength >= 1 else { throw CertificateDecodingError(.malformedDER, "empty BIT STRING") }
        let unused = Int(contentByte(0))
        guard unused <= 7, !(contentLength == 1 && unused != 0) else {
            throw CertificateDecodingError(.malformedDER, "invalid BIT STRING unused-bits count")
        }
        return (UnsafeBufferPointer(start: base + (contentStart &+ 1), count: contentLength &- 1), unused)
    }

    /// A UTCTime or GeneralizedTime as RFC 5280 §4.1.2.5 profiles them.
    func time() throws(CertificateDecodingError) -> Date {
        guard let date = DERTime.parse(tag: tag, contents) else {
            let text = String(decoding: contents.prefix(32), as: UTF8.self)
            throw CertificateDecodingError(.malformedDER, "invalid \(DERTag.describe(tag)) '\(text)'")
        }
        return date
    }
}

/// Conversion of encoded OBJECT IDENTIFIER contents to dotted text.
enum OIDText {
    /// True exactly when ``dotted(_:)`` gives text for `bytes` (the same rules, with nothing allocated).
    static func isValid<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Bool { forEachArc(bytes) { _ in } }

    /// Dotted text for `bytes`, or nil when the encoding is not minimal or is truncated.
    static func dotted<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> String? {
        var parts: [UInt64] = []
        guard forEachArc(bytes, { parts.append($0) }), let first = parts.first else { return nil }
        var text: String
        if first < 40 { text = "0.\(first)" } else if first < 80 { text = "1.\(first &- 40)" } else { text = "2.\(first &- 80)" }
        for part in parts.dropFirst() {
            text += "."
            text += String(part)
        }
        return text
    }

    /// Calls `arc` with each arc's value in order (the first holds the first two arcs); false when `bytes` is
    /// empty, an arc is not minimally encoded, is truncated or does not fit 64 bits.
    private static func forEachArc<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ arc: (UInt64) -> Void) -> Bool {
        guard !bytes.isEmpty else { return false }
        var value: UInt64 = 0
        var inArc = false
        for byte in bytes {
            if !inArc && byte == 0x80 { return false }
            guard value <= (UInt64.max >> 7) else { return false }
            value = (value << 7) | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                arc(value)
                value = 0
                inArc = false
            } else {
                inArc = true
            }
        }
        return !inArc
    }
}
