import CertKit
internal import CGnuTLS
import Foundation

/// GnuTLS's own verdict on one candidate path (the audit mode), as neutral facts the core judges.
///
/// - The path is imported; a certificate GnuTLS refuses to import (GnuTLS 3.7 refuses a duplicate extension)
///   is an ``LibraryFact/Status/importRefused`` fact on that certificate.
/// - An anchored path of two or more certificates is verified by `gnutls_x509_trust_list_verify_crt2` against
///   the anchor's one-entry trust list at the verify date (thread-local time override), exactly in this order;
///   each status bit is named by ``GnuTLSStatus/facts``. Weak algorithms are allowed and no verification
///   profile is set, so floors stay with the core; unknown critical extensions are left to the core too.
/// - Each CRL the core validated is applied with `gnutls_x509_crt_check_revocation` to the certificate its
///   issuer in the path issued — the issuer that names it and whose key verifies it.
/// A leaf that is itself the anchor, and an anchor GnuTLS will not keep in a trust list, get no path verdict.
struct GnuTLSLibraryVerdict {
    let path: CandidatePath
    let store: GnuTLSAnchorStore
    let date: Date
    let certificateCache: CertificateHandleCache<GnuTLSCertificate>

    private static let pathFlags: UInt32 = GnuTLSLibrary.permissiveAlgorithmFlags
        | GNUTLS_VERIFY_DO_NOT_ALLOW_UNSORTED_CHAIN.rawValue | GNUTLS_VERIFY_IGNORE_UNKNOWN_CRIT_EXTENSIONS.rawValue

    func run(crls: [CertificateRevocationList]) throws(BackendError) -> [LibraryFact] {
        var findings: [LibraryFact] = []
        var certificates: [GnuTLSCertificate] = []
        for (index, certificate) in path.certificates.enumerated() {
            do {
                certificates.append(try certificateCache.handle(for: certificate.derEncoded) { der throws(GnuTLSCode) in
                    try GnuTLSCertificate(importing: der)
                })
            } catch {
                findings.append(LibraryFact(
                    .importRefused, index: index, words: "refuses to import the certificate: \(error.message)"))
            }
        }
        guard findings.isEmpty else { return findings }
        return try GnuTLSLibrary.withVerifyTime(date) { () throws(BackendError) -> [LibraryFact] in
            var findings = try pathFindings(certificates)
            findings += try revocationFindings(certificates, crls: crls)
            return findings
        }
    }

    private func pathFindings(_ certificates: [GnuTLSCertificate]) throws(BackendError) -> [LibraryFact] {
        guard path.endsAtAnchor, certificates.count >= 2, let anchor = path.certificates.last,
              let list = store.trustList(for: anchor.derEncoded)
        else { return [] }
        return GnuTLSStatus(rawValue: try list.verify(certificates, flags: Self.pathFlags)).facts
    }

    private func revocationFindings(
        _ certificates: [GnuTLSCertificate], crls: [CertificateRevocationList]
    ) throws(BackendError) -> [LibraryFact] {
        guard !crls.isEmpty, certificates.count >= 2 else { return [] }
        var findings: [LibraryFact] = []
        for crl in crls {
            let list = try GnuTLSRevocationList(bytes: crl.derEncoded)
            for issuerIndex in certificates.indices.dropFirst()
            where list.isIssued(by: certificates[issuerIndex]) && list.isSigned(by: certificates[issuerIndex]) {
                if try list.revokes(certificates[issuerIndex - 1]) {
                    findings.append(LibraryFact(.revoked, index: issuerIndex - 1, words: "listed on its issuer's CRL"))
                }
            }
        }
        return findings
    }
}
