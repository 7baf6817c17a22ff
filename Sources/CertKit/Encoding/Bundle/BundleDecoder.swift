/// Detects the container format by content and decodes every certificate in it.
enum BundleDecoder {
    /// PEM labels whose contents are one X.509 certificate.
    static let certificateLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"]
    /// PEM labels whose contents are a PKCS#7 / CMS ContentInfo.
    static let pkcs7Labels: Set<String> = ["PKCS7", "CMS", "PKCS #7 SIGNED DATA"]

    static func decode(_ bytes: [UInt8]) throws(CertificateDecodingError) -> CertificateBundle {
        guard bytes.contains(where: { !isWhitespace($0) }) else {
            throw CertificateDecodingError(.empty, "empty input")
        }
        if containsBeginLine(bytes) { return try decodePEM(bytes) }
        if bytes[0] == DERTag.sequence { return try decodeDER(bytes) }
        if bytes.allSatisfy({ isWhitespace($0) || ($0 >= 0x20 && $0 < 0x7F) }) {
            throw CertificateDecodingError(.unsupportedFormat, "not a certificate: text without a PEM BEGIN line")
        }
        throw CertificateDecodingError(.malformedDER,
            "not a certificate: binary data that is not DER (first byte 0x\(Hex.encode([bytes[0]])), expected a SEQUENCE)")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    private static func containsBeginLine(_ bytes: [UInt8]) -> Bool {
        let marker = Array("-----BEGIN ".utf8)
        guard bytes.count >= marker.count else { return false }
        for index in 0...(bytes.count - marker.count) where bytes[index] == 0x2D {
            if bytes[index..<(index + marker.count)].elementsEqual(marker) { return true }
        }
        return false
    }

    // MARK: PEM

    private static func decodePEM(_ text: [UInt8]) throws(CertificateDecodingError) -> CertificateBundle {
        let blocks = try PEMDecoder.decode(text)
        var certificates: [Certificate] = []
        var skipped: [String] = []
        var notes: [String] = []
        var sawPlainCertificate = false
        var sawPKCS7 = false
        for (index, block) in blocks.enumerated() {
            let where_ = "PEM block \(index + 1) (\(block.label))"
            if certificateLabels.contains(block.label) {
                sawPlainCertificate = true
                var reader = DERReader(block.bytes)
                let node: DERNode
                do throws(CertificateDecodingError) {
                    guard let first = try reader.next() else { throw CertificateDecodingError(.malformedDER, "empty block") }
                    node = first
                    if !reader.isAtEnd {
                        guard block.label == "TRUSTED CERTIFICATE" else {
                            throw CertificateDecodingError(.malformedDER, "\(reader.remaining) trailing bytes after the certificate")
                        }
                        notes.append("\(where_): dropped \(reader.remaining) bytes of OpenSSL trust information")
                    }
                    certificates.append(try X509Parser.parseCertificate(node: node))
                } catch {
                    throw CertificateDecodingError(error.kind, "\(where_): \(error.message)")
                }
            } else if pkcs7Labels.contains(block.label) {
                sawPKCS7 = true
                do throws(CertificateDecodingError) {
                    certificates += try decodePKCS7(block.bytes)
                } catch {
                    throw CertificateDecodingError(error.kind, "\(where_): \(error.message)")
                }
            } else {
                skipped.append(block.label)
            }
        }
        guard !certificates.isEmpty else { throw noCertificate(skipped: skipped, sawPKCS7: sawPKCS7) }
        let format: CertificateBundle.Format = sawPKCS7 && !sawPlainCertificate ? .pkcs7PEM : .pem
        return CertificateBundle(certificates: certificates, format: format, skippedBlocks: skipped, notes: notes)
    }

    private static func noCertificate(skipped: [String], sawPKCS7: Bool) -> CertificateDecodingError {
        if sawPKCS7 { return CertificateDecodingError(.noCertificate, "no certificate found (the PKCS#7 bundle holds none)") }
        var counts: [(String, Int)] = []
        for label in skipped {
            if let index = counts.firstIndex(where: { $0.0 == label }) { counts[index].1 += 1 } else { counts.append((label, 1)) }
        }
        let described = counts.map { label, count in
            count > 1 ? "\(count) \(label) blocks" : ("AEIOU".contains(label.prefix(1)) ? "an " : "a ") + "\(label) block"
        }
        let list = described.count <= 1 ? described.joined()
            : described.dropLast().joined(separator: ", ") + " and " + (described.last ?? "")
        return CertificateDecodingError(.noCertificate, "no certificate found (only \(list))")
    }

    // MARK: DER

    private static func decodePKCS7(_ der: [UInt8]) throws(CertificateDecodingError) -> [Certificate] {
        var reader = DERReader(der)
        let contentInfo = try reader.read(DERTag.sequence, "PKCS#7 ContentInfo")
        try reader.expectEnd("the PKCS#7 ContentInfo")
        var certificates: [Certificate] = []
        for (index, node) in try PKCS7Parser.certificateNodes(contentInfo).enumerated() {
            do throws(CertificateDecodingError) {
                certificates.append(try X509Parser.parseCertificate(node: node))
            } catch {
                throw CertificateDecodingError(error.kind, "PKCS#7 certificate \(index + 1): \(error.message)")
            }
        }
        return certificates
    }

    private static func decodeDER(_ der: [UInt8]) throws(CertificateDecodingError) -> CertificateBundle {
        var reader = DERReader(der)
        guard let first = try reader.next() else { throw CertificateDecodingError(.empty, "empty input") }
        if PKCS7Parser.looksLikeContentInfo(first) {
            try reader.expectEnd("the PKCS#7 ContentInfo")
            let certificates = try decodePKCS7(der)
            guard !certificates.isEmpty else {
                throw CertificateDecodingError(.noCertificate, "no certificate found (the PKCS#7 bundle holds none)")
            }
            return CertificateBundle(certificates: certificates, format: .pkcs7DER)
        }
        var certificates: [Certificate] = []
        var node: DERNode? = first
        while let current = node {
            do throws(CertificateDecodingError) {
                guard current.tag == DERTag.sequence else {
                    throw CertificateDecodingError(.malformedDER, "expected a certificate SEQUENCE, found \(DERTag.describe(current.tag))")
                }
                certificates.append(try X509Parser.parseCertificate(node: current))
                node = try reader.next()
            } catch {
                if certificates.isEmpty && isCRL(der) {
                    throw CertificateDecodingError(.noCertificate, "no certificate found (only a DER CRL)")
                }
                let message = certificates.isEmpty ? error.message
                    : "trailing data after DER certificate \(certificates.count): \(error.message)"
                throw CertificateDecodingError(error.kind, message)
            }
        }
        return CertificateBundle(certificates: certificates, format: certificates.count == 1 ? .der : .derSequence)
    }

    private static func isCRL(_ der: [UInt8]) -> Bool {
        (try? CRLParser.parse(der)) != nil
    }
}
