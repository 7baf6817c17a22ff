/// Detects the container format by content and decodes every certificate in it, within ``Limits``: the input's
/// size, its PEM blocks and its certificates are bounded before any certificate is parsed.
enum BundleDecoder {
    /// PEM labels whose contents are one X.509 certificate.
    static let certificateLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"]
    /// PEM labels whose contents are a PKCS#7 / CMS ContentInfo.
    static let pkcs7Labels: Set<String> = ["PKCS7", "CMS", "PKCS #7 SIGNED DATA"]

    /// Decodes `bytes`. With `skipping`, a certificate that does not parse (a PEM certificate block, a PKCS#7
    /// certificate, a DER element) is listed in ``CertificateBundle/undecodable`` and decoding goes on; the input's
    /// own bounds and framing still throw, and so does an input with no certificate entry at all.
    static func decode(
        _ bytes: [UInt8], limits: Limits, skipping: Bool = false
    ) throws(CertificateDecodingError) -> CertificateBundle {
        guard bytes.count <= limits.maxInputBytes else {
            throw .limit("input of \(bytes.count) bytes is larger than \(limits.maxInputBytes)", "maxInputBytes")
        }
        guard bytes.contains(where: { !isWhitespace($0) }) else {
            throw CertificateDecodingError(.empty, "empty input")
        }
        var undecodable = UndecodableList(skipping: skipping)
        var bundle: CertificateBundle
        if containsBeginLine(bytes) {
            bundle = try decodePEM(bytes, limits: limits, undecodable: &undecodable)
        } else if bytes[0] == DERTag.sequence {
            bundle = try decodeDER(bytes, limits: limits, undecodable: &undecodable)
        } else if bytes.allSatisfy({ isWhitespace($0) || ($0 >= 0x20 && $0 < 0x7F) }) {
            throw CertificateDecodingError(.unsupportedFormat, "not a certificate: text without a PEM BEGIN line")
        } else {
            throw CertificateDecodingError(.malformedDER,
                "not a certificate: binary data that is not DER (first byte 0x\(Hex.encode([bytes[0]])), expected a SEQUENCE)")
        }
        bundle.undecodable = undecodable.entries
        return bundle
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    private static let beginMarker = Array("-----BEGIN ".utf8)

    private static func containsBeginLine(_ bytes: [UInt8]) -> Bool {
        let marker = beginMarker
        guard bytes.count >= marker.count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            marker.withUnsafeBufferPointer { pattern in
                var index = 0
                let last = buffer.count - pattern.count
                while index <= last, let dash = PEMDecoder.firstIndex(of: 0x2D, in: buffer, from: index, to: last + 1) {
                    var offset = 1
                    while offset < pattern.count && buffer[dash + offset] == pattern[offset] { offset += 1 }
                    if offset == pattern.count { return true }
                    index = dash + 1
                }
                return false
            }
        }
    }

    /// Refuses an input with more than ``Limits/maxCertificatesPerInput`` certificates, before parsing any.
    private static func checkCount(_ count: Int, limits: Limits) throws(CertificateDecodingError) {
        guard count <= limits.maxCertificatesPerInput else {
            throw .limit("more than \(limits.maxCertificatesPerInput) certificates", "maxCertificatesPerInput")
        }
    }

    // MARK: PEM

    private static func decodePEM(
        _ text: [UInt8], limits: Limits, undecodable: inout UndecodableList
    ) throws(CertificateDecodingError) -> CertificateBundle {
        let blocks = try PEMDecoder.decode(text, limits: limits)
        try checkCount(blocks.reduce(0) { $0 + (certificateLabels.contains($1.label) ? 1 : 0) }, limits: limits)
        var certificates: [Certificate] = []
        var skipped: [String] = []
        var notes: [String] = []
        var sawPlainCertificate = false
        var sawPKCS7 = false
        for (index, block) in blocks.enumerated() {
            var where_: String { "PEM block \(index + 1) (\(MessageText.line(block.label)))" }
            if certificateLabels.contains(block.label) {
                sawPlainCertificate = true
                let certificate = try undecodable.entry { () throws(CertificateDecodingError) -> Certificate in
                    do throws(CertificateDecodingError) {
                        return try DERReader.read(block.bytes) { reader throws(CertificateDecodingError) in
                            guard let node = try reader.next() else { throw CertificateDecodingError(.malformedDER, "empty block") }
                            if !reader.isAtEnd {
                                guard block.label == "TRUSTED CERTIFICATE" else {
                                    throw CertificateDecodingError(.malformedDER, "\(reader.remaining) trailing bytes after the certificate")
                                }
                                notes.append("\(where_): dropped \(reader.remaining) bytes of OpenSSL trust information")
                            }
                            return try X509Parser.parseCertificate(node: node, in: block.bytes, limits: limits)
                        }
                    } catch {
                        throw CertificateDecodingError(error.code, "\(where_): \(error.message)")
                    }
                }
                if let certificate { certificates.append(certificate) }
            } else if pkcs7Labels.contains(block.label) {
                sawPKCS7 = true
                do throws(CertificateDecodingError) {
                    certificates += try decodePKCS7(block.bytes, limits: limits, undecodable: &undecodable)
                    try checkCount(certificates.count, limits: limits)
                } catch {
                    throw CertificateDecodingError(error.code, "\(where_): \(error.message)")
                }
            } else {
                skipped.append(block.label)
            }
        }
        guard !certificates.isEmpty || !undecodable.entries.isEmpty else {
            throw noCertificate(skipped: skipped, sawPKCS7: sawPKCS7)
        }
        let format: CertificateBundle.Format = sawPKCS7 && !sawPlainCertificate ? .pkcs7PEM : .pem
        return CertificateBundle(certificates: certificates, format: format, skippedBlocks: skipped, notes: notes)
    }

    /// "no certificate found (only ...)": what was found instead, as one short line whatever the input holds
    /// (the first few labels in order of appearance, then how many blocks carry the other labels).
    private static func noCertificate(skipped: [String], sawPKCS7: Bool) -> CertificateDecodingError {
        if sawPKCS7 { return CertificateDecodingError(.noCertificate, "no certificate found (the PKCS#7 bundle holds none)") }
        var counts: [String: Int] = [:]
        var order: [String] = []
        for label in skipped {
            counts[label, default: 0] += 1
            if counts[label] == 1 { order.append(label) }
        }
        let shown = 3
        var described = order.prefix(shown).map { label -> String in
            let count = counts[label] ?? 0
            let text = MessageText.line(label)
            return count > 1 ? "\(count) \(text) blocks" : ("AEIOU".contains(label.prefix(1)) ? "an " : "a ") + "\(text) block"
        }
        if order.count > shown {
            let others = order.dropFirst(shown).reduce(0) { $0 + (counts[$1] ?? 0) }
            described.append("\(others) block\(others == 1 ? "" : "s") with \(order.count - shown) other label\(order.count - shown == 1 ? "" : "s")")
        }
        let list = described.count <= 1 ? described.joined()
            : described.dropLast().joined(separator: ", ") + " and " + (described.last ?? "")
        return CertificateDecodingError(.noCertificate, "no certificate found (only \(list))")
    }

    // MARK: DER

    private static func decodePKCS7(
        _ der: [UInt8], limits: Limits, undecodable: inout UndecodableList
    ) throws(CertificateDecodingError) -> [Certificate] {
        try DERReader.read(der) { reader throws(CertificateDecodingError) in
            let contentInfo = try reader.read(DERTag.sequence, "PKCS#7 ContentInfo")
            try reader.expectEnd("the PKCS#7 ContentInfo")
            let nodes = try PKCS7Parser.certificateNodes(contentInfo)
            try checkCount(nodes.count, limits: limits)
            var certificates: [Certificate] = []
            for (index, node) in nodes.enumerated() {
                let certificate = try undecodable.entry { () throws(CertificateDecodingError) -> Certificate in
                    do throws(CertificateDecodingError) {
                        return try X509Parser.parseCertificate(node: node, in: der, limits: limits)
                    } catch {
                        throw CertificateDecodingError(error.code, "PKCS#7 certificate \(index + 1): \(error.message)")
                    }
                }
                if let certificate { certificates.append(certificate) }
            }
            return certificates
        }
    }

    private static func decodeDER(
        _ der: [UInt8], limits: Limits, undecodable: inout UndecodableList
    ) throws(CertificateDecodingError) -> CertificateBundle {
        try DERReader.read(der) { reader throws(CertificateDecodingError) in
            try decodeDER(der, reader: &reader, limits: limits, undecodable: &undecodable)
        }
    }

    private static func decodeDER(
        _ der: [UInt8], reader: inout DERReader, limits: Limits, undecodable: inout UndecodableList
    ) throws(CertificateDecodingError) -> CertificateBundle {
        guard let first = try reader.next() else { throw CertificateDecodingError(.empty, "empty input") }
        if PKCS7Parser.looksLikeContentInfo(first) {
            try reader.expectEnd("the PKCS#7 ContentInfo")
            let certificates = try decodePKCS7(der, limits: limits, undecodable: &undecodable)
            guard !certificates.isEmpty || !undecodable.entries.isEmpty else {
                throw CertificateDecodingError(.noCertificate, "no certificate found (the PKCS#7 bundle holds none)")
            }
            return CertificateBundle(certificates: certificates, format: .pkcs7DER)
        }
        try checkCount(topLevelCount(der, limits: limits), limits: limits)
        var certificates: [Certificate] = []
        var node: DERNode? = first
        while let current = node {
            do throws(CertificateDecodingError) {
                guard current.tag == DERTag.sequence else {
                    throw CertificateDecodingError(.malformedDER, "expected a certificate SEQUENCE, found \(DERTag.describe(current.tag))")
                }
                // When skipping, a SEQUENCE that is not a certificate is listed (a DER CRL alone is still "no
                // certificate found"); broken framing still throws.
                let first = undecodable.seen == 0
                let certificate = try undecodable.entry { () throws(CertificateDecodingError) -> Certificate in
                    try X509Parser.parseCertificate(node: current, in: der, limits: limits)
                }
                if let certificate {
                    certificates.append(certificate)
                } else if first, let kind = otherKind(der) {
                    throw CertificateDecodingError(.noCertificate, "\(kind.description), not a certificate")
                }
                node = try reader.next()
            } catch {
                if certificates.isEmpty, let kind = otherKind(der) {
                    throw CertificateDecodingError(.noCertificate, "\(kind.description), not a certificate")
                }
                let message = certificates.isEmpty ? error.message
                    : "trailing data after DER certificate \(certificates.count): \(error.message)"
                throw CertificateDecodingError(error.code, message)
            }
        }
        return CertificateBundle(certificates: certificates, format: certificates.count == 1 ? .der : .derSequence)
    }

    /// What `der` is when it is recognisably another kind of file than a certificate (a key, a CSR, a CRL, an
    /// OCSP message, PKCS#12, a PKCS#7 message that is not signedData), else nil.
    private static func otherKind(_ der: [UInt8]) -> DERKind? {
        guard let kind = DERKind.identify(der), kind != .certificate else { return nil }
        return kind
    }

    /// How many well-formed top-level elements `der` starts with, counting no further than one past the limit:
    /// a sequence of 60,000 certificates is refused after reading 10,001 headers, before any is parsed.
    private static func topLevelCount(_ der: [UInt8], limits: Limits) -> Int {
        (try? DERReader.read(der) { reader throws(CertificateDecodingError) in
            var count = 0
            while count <= limits.maxCertificatesPerInput, (try? reader.next()) != nil { count += 1 }
            return count
        }) ?? 0
    }
}
