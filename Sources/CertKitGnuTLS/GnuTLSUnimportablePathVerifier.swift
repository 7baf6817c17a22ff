import CertKit
internal import CGnuTLS
import Foundation

/// Verifies a path in which GnuTLS refuses to import a certificate the core parsed (GnuTLS 3.7 rejects
/// certificates with a duplicate extension, which certkit reports as the recoverable DuplicateExtension).
///
/// Without `gnutls_x509_crt_t` handles the trust-list verification cannot run, so the backend still does what
/// it can with GnuTLS: every link's signature is verified with `gnutls_pubkey_verify_data2` (issuer's
/// SubjectPublicKeyInfo, the tbsCertificate and signature the core parsed), validity is compared at the date,
/// and the path end is classified. CA constraints are left to the core's own checks, and CRLs are not applied
/// (noted). A signature that does not verify is still reported, so an exception for DuplicateExtension can
/// never accept a forged certificate.
struct GnuTLSUnimportablePathVerifier {
    let path: CandidatePath
    let date: Date

    /// `refused` maps path indices GnuTLS would not import to its reason.
    func run(refused: [Int: String], crls: [CertificateRevocationList]) throws(BackendError) -> PathFindings {
        let certificates = path.certificates
        var findings = PathFindings(count: certificates.count)
        for (index, reason) in refused.sorted(by: { $0.key < $1.key }) {
            findings.record(.duplicateExtension, at: index, note: "GnuTLS refuses the certificate: \(reason)")
        }
        for (index, certificate) in certificates.enumerated() {
            if date < certificate.notBefore {
                findings.record(.temporalValidity, at: index, note: "certificate is not yet activated")
            } else if date > certificate.notAfter {
                findings.record(.temporalValidity, at: index, note: "certificate has expired")
            }
        }
        for index in certificates.indices.dropLast() {
            let issuerKey = try GnuTLSPublicKey(spki: certificates[index + 1].publicKey.derEncoded)
            if let reason = issuerKey.verifySignature(of: certificates[index]) {
                findings.record(.signature, at: index, note: reason)
            }
        }
        if !path.endsAtAnchor, let last = certificates.last {
            let check: TrustCheck = GnuTLSPublicKey.isSelfSigned(last, selfIssued: last.isSelfIssued)
                ? .anchorTrusted : .missingIntermediate
            findings.record(check, at: certificates.count - 1, note: "path does not end at an anchor")
        }
        if !crls.isEmpty { findings.notes.append("CRLs not applied: GnuTLS cannot import every certificate of the path") }
        return findings
    }
}
