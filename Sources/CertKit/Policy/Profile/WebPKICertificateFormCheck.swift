import Foundation

/// Web PKI certificate-profile rules (CA/B Forum Baseline Requirements) on every certificate of the path:
/// - `TrustRules/caKeyUsage` (`KeyUsage`): a CA certificate — an issuer in the path below the anchor (the anchor
///   is taken as given, `PathContext/appliesCAProfileRules(at:)`), or any other certificate asserting cA —
///   carries a critical keyUsage (BR §7.1.2.1.2, §7.1.2.10.7);
/// - `TrustRules/signatureDigest` (`SignatureHashAlgorithms`): every signature but the anchor's uses SHA-256,
///   SHA-384 or SHA-512 with RSA PKCS#1 v1.5, RSASSA-PSS or ECDSA (BR §7.1.3.2);
/// - `TrustRules/crlDistributionPointsNotCritical` (`ExtensionCriticality`): cRLDistributionPoints is not critical
///   (BR §7.1.2.11.2);
/// - `TrustRules/validityTimeEncoding` (`TemporalValidity`): validity dates through 2049 are UTCTime, from 2050
///   GeneralizedTime (RFC 5280 §4.1.2.5, BR §7.1.2.7);
/// - `TrustRules/criticalFalseEncoded` (`MalformedExtension`): no extension, on any certificate (anchor included),
///   writes `critical FALSE` out: DER leaves a DEFAULT value out (X.690 §11.5), and Chrome and pyca/cryptography
///   refuse to parse such a certificate.
package struct WebPKICertificateFormCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        for (index, certificate) in context.certificates.enumerated() {
            let extensions = certificate.extensionsView
            let isCA = index > 0 || extensions.basicConstraints?.isCA == true
            if isCA, context.enforces(TrustRules.caKeyUsage), context.appliesCAProfileRules(at: index),
               extensions.first(ExtensionOID.keyUsage)?.isCritical != true {
                findings.record(TrustRules.caKeyUsage, at: index,
                                note: extensions.keyUsage == nil ? "no keyUsage" : "keyUsage is not critical")
            }
            if index != context.anchorIndex, context.enforces(TrustRules.signatureDigest),
               !Self.isAllowed(certificate.signatureAlgorithm.scheme) {
                findings.record(TrustRules.signatureDigest, at: index, note: "\(certificate.signatureAlgorithm)")
            }
            if context.enforces(TrustRules.crlDistributionPointsNotCritical),
               extensions.first(ExtensionOID.crlDistributionPoints)?.isCritical == true {
                findings.record(TrustRules.crlDistributionPointsNotCritical, at: index, note: "cRLDistributionPoints is critical")
            }
            if context.enforces(TrustRules.validityTimeEncoding), let problem = Self.validityEncodingProblem(certificate) {
                findings.record(TrustRules.validityTimeEncoding, at: index, note: problem)
            }
            if context.enforces(TrustRules.criticalFalseEncoded), let oid = extensions.criticalFalseEncoded.first {
                findings.record(TrustRules.criticalFalseEncoded, at: index,
                                note: "\(ExtensionOID.names[oid] ?? oid) writes critical FALSE out (a DEFAULT value)")
            }
        }
    }

    /// True for the signature schemes the Baseline Requirements allow.
    static func isAllowed(_ scheme: SignatureScheme?) -> Bool {
        switch scheme {
        case .rsaPKCS1(let hash), .rsaPSS(let hash, _), .ecdsa(let hash): [.sha256, .sha384, .sha512].contains(hash)
        case .ed25519, .ed448, nil: false
        }
    }

    /// What is wrong with the encoding of the validity dates, or nil: a date before 2050 in GeneralizedTime
    /// (UTCTime cannot hold a date from 2050 on, so the other mistake does not decode).
    static func validityEncodingProblem(_ certificate: Certificate) -> String? {
        guard let tags = validityTags(certificate.tbsCertificateBytes) else { return nil }
        let year2050 = Date(timeIntervalSince1970: 2_524_608_000)  // 2050-01-01T00:00:00Z
        for (tag, date, field) in [(tags.0, certificate.notBefore, "notBefore"), (tags.1, certificate.notAfter, "notAfter")]
        where tag == DERTag.generalizedTime && date < year2050 {
            return "\(field) before 2050 is encoded as GeneralizedTime"
        }
        return nil
    }

    /// The tags of notBefore and notAfter, read again from the TBS bytes.
    private static func validityTags(_ tbs: [UInt8]) -> (UInt8, UInt8)? {
        try? DERReader.read(tbs) { outer throws(CertificateDecodingError) -> (UInt8, UInt8)? in
            guard let node = try outer.next() else { return nil }
            var fields = try node.children()
            var skipped = 0
            while let field = try fields.next() {
                if field.tag == DERTag.contextConstructed(0) { continue }  // version
                skipped += 1  // serialNumber, signature, issuer, then validity
                if skipped == 4 {
                    var validity = try field.children()
                    guard let notBefore = try validity.next(), let notAfter = try validity.next() else { return nil }
                    return (notBefore.tag, notAfter.tag)
                }
            }
            return nil
        } ?? nil
    }
}
