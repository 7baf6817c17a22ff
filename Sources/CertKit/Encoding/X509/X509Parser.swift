import Foundation

/// Parses X.509 certificates (RFC 5280 §4.1) from DER. The envelope is strict; problems inside known
/// extensions are recorded on ``CertificateExtensions`` rather than failing the certificate.
enum X509Parser {
    static func parseCertificate(_ der: [UInt8], limits: Limits) throws(CertificateDecodingError) -> Certificate {
        guard der.count <= limits.maxInputBytes else {
            throw .limit("a certificate of \(der.count) bytes is larger than \(limits.maxInputBytes)", "maxInputBytes")
        }
        return try DERReader.read(der) { top throws(CertificateDecodingError) in
            let certificate = try top.read(DERTag.sequence, "Certificate SEQUENCE")
            try top.expectEnd("the certificate")
            return try parseCertificate(node: certificate, in: der, limits: limits)
        }
    }

    /// Parses the certificate encoded by `node` (a SEQUENCE), read from `input`; its encoding becomes `derEncoded`
    /// (`input` itself, not a copy, when the node is all of it).
    static func parseCertificate(
        node certificate: DERNode, in input: [UInt8], limits: Limits
    ) throws(CertificateDecodingError) -> Certificate {
        let envelope = try SignedEnvelope(certificate, tbsName: "tbsCertificate", prefix: "")
        let tbs = envelope.tbs
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
        // The signed part and the signature are kept as ranges of the certificate's encoding, not copies.
        let origin = certificate.start
        let extensions = try extensionsAndIdentifiers(&fields, version: version, origin: origin, limits: limits)
        let signature = envelope.signatureRange
        let whole = certificate.start == 0 && certificate.end == input.count
        return Certificate(
            derEncoded: whole ? input : certificate.encoded, tbsRange: (tbs.start - origin)..<(tbs.end - origin),
            version: version, serialNumber: serial, signatureAlgorithm: envelope.signatureAlgorithm,
            signatureRange: (signature.lowerBound - origin)..<(signature.upperBound - origin),
            issuer: issuer, subject: subject, notBefore: notBefore, notAfter: notAfter, publicKey: publicKey,
            extensions: extensions,
            tbsSignatureAlgorithmMatches: envelope.matches(innerAlgorithm: innerAlgorithm))
    }

    /// Reads the rest of the tbsCertificate after the key: the unique identifiers and the extensions, with what
    /// the version does not allow recorded as malformed (RFC 5280 §4.1.2.8, §4.1.2.9). The extensions are decoded
    /// now only when decoding could still fail the certificate (``DeferredExtensions``), else kept as a range of
    /// the certificate's encoding, which starts at `origin` in the input.
    private static func extensionsAndIdentifiers(
        _ fields: inout DERReader, version: Int, origin: Int, limits: Limits
    ) throws(CertificateDecodingError) -> DeferredExtensions {
        var uniqueIdentifiers = 0
        for tag in [DERTag.contextPrimitive(1), DERTag.contextConstructed(1), DERTag.contextPrimitive(2),
                    DERTag.contextConstructed(2)] where try fields.readIfPresent(tag) != nil {
            uniqueIdentifiers += 1
        }
        var notes: [String] = []
        var extensionsSequence: DERNode?
        var extensions: CertificateExtensions?
        if let explicitExtensions = try fields.readIfPresent(DERTag.contextConstructed(3)) {
            var inner = try explicitExtensions.children()
            let sequence = try inner.read(DERTag.sequence, "extensions")
            if try ExtensionsParser.checkFraming(sequence, limits: limits) {
                extensions = try ExtensionsParser.parse(sequence, limits: limits)
            } else {
                extensionsSequence = sequence
            }
            try inner.expectEnd("extensions")
            // RFC 5280 §4.1.2.9: extensions only in version 3. Recorded as a malformed extension (fail closed:
            // OpenSSL reads them, GnuTLS refuses the certificate).
            if version < 3 { notes.append("extensions in a version \(version) certificate") }
        }
        // RFC 5280 §4.1.2.8: unique identifiers only in versions 2 and 3.
        if version < 2, uniqueIdentifiers > 0 { notes.append("unique identifiers in a version 1 certificate") }
        try fields.expectEnd("tbsCertificate")
        if let extensionsSequence {
            return DeferredExtensions(
                range: (extensionsSequence.start - origin)..<(extensionsSequence.end - origin), limits: limits, notes: notes)
        }
        var decoded = extensions ?? CertificateExtensions()
        decoded.malformed += notes
        return DeferredExtensions(decoded)
    }

    static func invalid(_ message: String) -> CertificateDecodingError {
        CertificateDecodingError(.invalidCertificate, message)
    }
}
