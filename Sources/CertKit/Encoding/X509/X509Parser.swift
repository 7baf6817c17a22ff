import Foundation

/// Parses X.509 certificates (RFC 5280 §4.1) from DER. The envelope is strict; problems inside known
/// extensions are recorded on ``CertificateExtensions`` rather than failing the certificate.
enum X509Parser {
    static func parseCertificate(_ der: [UInt8], limits: Limits) throws(CertificateDecodingError) -> Certificate {
        guard der.count <= limits.maxInputBytes else {
            throw .limit("a certificate of \(der.count) bytes is larger than \(limits.maxInputBytes)", "maxInputBytes")
        }
        var top = DERReader(der)
        let certificate = try top.read(DERTag.sequence, "Certificate SEQUENCE")
        try top.expectEnd("the certificate")
        return try parseCertificate(node: certificate, limits: limits)
    }

    /// Parses the certificate encoded by `node` (a SEQUENCE); its encoding becomes `derEncoded`.
    static func parseCertificate(node certificate: DERNode, limits: Limits) throws(CertificateDecodingError) -> Certificate {
        var outer = try certificate.children()
        let tbs = try outer.read(DERTag.sequence, "tbsCertificate")
        let outerAlgorithm = try outer.read(DERTag.sequence, "signatureAlgorithm")
        let signatureAlgorithm = try AlgorithmIdentifierParser.signatureAlgorithm(outerAlgorithm)
        let signature = try outer.read(DERTag.bitString, "signatureValue").bitString()
        try outer.expectEnd("signatureValue")

        var fields = try tbs.children()
        var version = 1
        if let explicitVersion = try fields.readIfPresent(DERTag.contextConstructed(0)) {
            var inner = try explicitVersion.children()
            let number = try inner.read(DERTag.integer, "version").smallInteger()
            try inner.expectEnd("version")
            guard number <= 2 else { throw invalid("unsupported certificate version \(number + 1)") }
            version = number + 1
        }
        let serial = try fields.read(DERTag.integer, "serialNumber").integerBytes()
        let innerAlgorithm = try fields.read(DERTag.sequence, "tbsCertificate signature")
        let issuer = try NameParser.parse(fields.read(DERTag.sequence, "issuer"), limits: limits)
        var validity = try fields.read(DERTag.sequence, "validity").children()
        guard let notBeforeNode = try validity.next(), let notAfterNode = try validity.next() else {
            throw CertificateDecodingError(.malformedDER, "validity is missing a time")
        }
        try validity.expectEnd("validity")
        let notBefore = try notBeforeNode.time()
        let notAfter = try notAfterNode.time()
        let subject = try NameParser.parse(fields.read(DERTag.sequence, "subject"), limits: limits)
        let publicKey = try PublicKeyParser.parse(fields.read(DERTag.sequence, "subjectPublicKeyInfo"))
        _ = try fields.readIfPresent(DERTag.contextPrimitive(1))
        _ = try fields.readIfPresent(DERTag.contextConstructed(1))
        _ = try fields.readIfPresent(DERTag.contextPrimitive(2))
        _ = try fields.readIfPresent(DERTag.contextConstructed(2))
        var extensions = CertificateExtensions()
        if let explicitExtensions = try fields.readIfPresent(DERTag.contextConstructed(3)) {
            var inner = try explicitExtensions.children()
            extensions = try ExtensionsParser.parse(inner.read(DERTag.sequence, "extensions"), limits: limits)
            try inner.expectEnd("extensions")
        }
        try fields.expectEnd("tbsCertificate")

        return Certificate(
            derEncoded: certificate.encoded, tbsCertificateBytes: tbs.encoded, version: version,
            serialNumber: serial, signatureAlgorithm: signatureAlgorithm, signatureBytes: signature.bytes,
            issuer: issuer, subject: subject, notBefore: notBefore, notAfter: notAfter, publicKey: publicKey,
            extensions: extensions,
            tbsSignatureAlgorithmMatches: innerAlgorithm.encoded == outerAlgorithm.encoded && signature.unusedBits == 0)
    }

    /// Parses a CRL (RFC 5280 §5.1).
    static func parseCRL(_ der: [UInt8], limits: Limits) throws(CertificateDecodingError) -> CertificateRevocationList {
        try CRLParser.parse(der, limits: limits)
    }

    static func invalid(_ message: String) -> CertificateDecodingError {
        CertificateDecodingError(.invalidCertificate, message)
    }
}
