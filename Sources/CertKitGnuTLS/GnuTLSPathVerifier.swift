import CertKit
internal import CGnuTLS
import Foundation

/// Verifies one candidate path with GnuTLS and says which certificate each failure belongs to.
///
/// GnuTLS's status word has no certificate index and `gnutls_x509_trust_list_verify_crt2` stops at the first
/// failing link (walking from the anchor down), so the verifier works in two layers:
/// 1. per-certificate checks made with GnuTLS primitives, which locate every failure: validity at the date,
///    each link's signature (`gnutls_x509_crt_verify` of certificate *i* against a one-entry list holding
///    certificate *i+1*), each issuer's basicConstraints / pathLen / keyUsage as GnuTLS reads them, and CRLs;
/// 2. the library's own verdict on the exact path against the anchor's one-entry trust list, at the verify
///    date (thread-local time override). Each status bit is attributed to the certificates layer 1 located;
///    a bit layer 1 cannot explain is still reported (defence in depth), on the leaf, with GnuTLS's words.
///
/// Normalization (DESIGN §3): a leaf that is itself the anchor is trusted without asking the library; an
/// anchor GnuTLS will not keep in a trust list is trusted by the per-link checks alone; anchors need not be
/// self-signed (GnuTLS accepts any CA it holds as trusted). Anchors are exempt from nothing else GnuTLS
/// checks: their validity, CA flag (v3) and pathLen still apply, as GnuTLS applies them.
struct GnuTLSPathVerifier {
    let path: CandidatePath
    let certificates: [GnuTLSCertificate]
    let store: GnuTLSAnchorStore
    let date: Date
    private(set) var findings: PathFindings

    /// Imports the path; nil when GnuTLS refuses a certificate for a reason certkit reports as a check
    /// (a duplicate extension), listed in `refused` by index. Any other refusal throws.
    /// Handles come from `certificateCache` when it holds them (refusals are never cached).
    init?(
        path: CandidatePath, store: GnuTLSAnchorStore, date: Date,
        certificateCache: CertificateHandleCache<GnuTLSCertificate>, refused: inout [Int: String]
    ) throws(BackendError) {
        self.path = path
        self.store = store
        self.date = date
        var imported: [GnuTLSCertificate] = []
        for (index, certificate) in path.certificates.enumerated() {
            do {
                imported.append(try certificateCache.handle(for: certificate.derEncoded) { der throws(GnuTLSCode) in
                    try GnuTLSCertificate(importing: der)
                })
            } catch where error.isDuplicateExtension {
                refused[index] = error.message
            } catch {
                throw BackendError("gnutls_x509_crt_import [\(index)]: \(error.message)")
            }
        }
        guard refused.isEmpty else { return nil }
        certificates = imported
        findings = PathFindings(count: path.certificates.count)
    }

    /// Runs every check; `crls` are applied to the certificates whose issuer in the path signed them.
    mutating func run(crls: [CertificateRevocationList]) throws(BackendError) -> PathFindings {
        guard !certificates.isEmpty else { return findings }
        try GnuTLSLibrary.withVerifyTime(date) { () throws(BackendError) in
            // The library's verdict on the whole path first: when it finds nothing, the per-certificate checks
            // (which exist only to say *where* a failure is) would find nothing either, so they are skipped and
            // every signature is verified once.
            let verdict = try libraryVerdict()
            if verdict?.isEmpty == true {
                try checkRevocation(crls)
                return
            }
            let located = try locateFailures()
            try checkPathEnd()
            if let verdict { applyLibraryVerdict(verdict, located) }
            try checkRevocation(crls)
        }
        return findings
    }

    // MARK: Layer 1: per-certificate checks

    /// Failures found certificate by certificate, keyed by the status bit GnuTLS would raise for them.
    private struct Located {
        var time: Set<Int> = []
        var signature: Set<Int> = []
        var notCA: Set<Int> = []
        var constraints: Set<Int> = []
    }

    private mutating func locateFailures() throws(BackendError) -> Located {
        var located = Located()
        let now = GnuTLSLibrary.timeValue(date)
        for (index, certificate) in certificates.enumerated() {
            if now < certificate.activationTime {
                findings.record(.temporalValidity, at: index, note: "certificate is not yet activated")
                located.time.insert(index)
            } else if now > certificate.expirationTime {
                findings.record(.temporalValidity, at: index, note: "certificate has expired")
                located.time.insert(index)
            }
        }
        for index in certificates.indices.dropLast() {
            if try !checkSignature(of: index) { located.signature.insert(index) }
        }
        for index in certificates.indices.dropFirst() {
            located.notCA.formUnion(checkIsCA(index))
            located.constraints.formUnion(checkConstraints(index))
        }
        return located
    }

    /// Verifies certificate `index`'s signature with certificate `index + 1`; false when it fails.
    private mutating func checkSignature(of index: Int) throws(BackendError) -> Bool {
        let subject = certificates[index]
        let issuer = certificates[index + 1]
        guard subject.isIssued(by: issuer) else {
            findings.record(.signature, at: index, note: "issuer name does not match the next certificate's subject")
            return false
        }
        let status = GnuTLSStatus(rawValue: try subject.signatureStatus(issuedBy: issuer))
        guard status.contains(.signatureFailure) || status.contains(.signerNotFound) else { return true }
        if status.contains(.insecureAlgorithm) || subject.hasBrokenSignatureDigest {
            // A digest GnuTLS refuses whatever the flags: the core reports WeakSignature; not a bad signature.
            findings.notes.append("[\(index)] signature uses a digest GnuTLS will not verify (\(status.libraryDescription))")
            return true
        }
        findings.record(.signature, at: index, note: status.libraryDescription)
        return false
    }

    /// True when certificate `index` is the anchor the path ends at.
    private func isAnchor(_ index: Int) -> Bool { path.endsAtAnchor && index == certificates.count - 1 }

    /// The issuer at `index` must be a CA, as GnuTLS's `check_if_ca` decides: v1 certificates pass only at the
    /// top of the path (trusted or self-signed root), v3 needs basicConstraints with cA TRUE.
    private mutating func checkIsCA(_ index: Int) -> Set<Int> {
        let certificate = certificates[index]
        let isTop = index == certificates.count - 1
        if certificate.version == 1 {
            if isTop { return [] }
            findings.record(.basicConstraints, at: index, note: "X.509 v1 certificate used as an intermediate CA")
            return [index]
        }
        guard let constraints = certificate.basicConstraints else {
            findings.record(.basicConstraints, at: index, note: "issuer has no basicConstraints extension")
            return [index]
        }
        guard constraints.isCA else {
            findings.record(.basicConstraintsCA, at: index, note: "issuer's basicConstraints says cA FALSE")
            return [index]
        }
        return []
    }

    /// pathLen and keyCertSign on the issuer at `index` (GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE causes).
    private mutating func checkConstraints(_ index: Int) -> Set<Int> {
        var failed: Set<Int> = []
        let certificate = certificates[index]
        if let usage = certificate.keyUsage, usage & UInt32(GNUTLS_KEY_KEY_CERT_SIGN) == 0 {
            findings.record(.keyUsage, at: index, note: "issuer's keyUsage lacks keyCertSign")
            failed.insert(index)
        }
        if let pathLength = certificate.basicConstraints?.pathLength {
            // RFC 5280 §4.2.1.9: non-self-issued intermediates below this CA (the leaf does not count).
            let below = certificates[1..<index].filter { !$0.isSelfIssued }.count
            if below > pathLength {
                findings.record(.basicConstraintsPathLen, at: index, note: "pathLenConstraint \(pathLength) exceeded by \(below) CA certificate(s)")
                failed.insert(index)
            }
        }
        return failed
    }

    /// A path that does not end at an anchor fails at its last certificate: AnchorTrusted when it is
    /// self-signed (names match and its own key verifies its signature), else MissingIntermediate.
    private mutating func checkPathEnd() throws(BackendError) {
        guard !path.endsAtAnchor else { return }
        let last = certificates.count - 1
        if GnuTLSPublicKey.isSelfSigned(path.certificates[last], selfIssued: certificates[last].isSelfIssued) {
            findings.record(.anchorTrusted, at: last, note: "self-signed certificate is not an anchor")
        } else {
            findings.record(.missingIntermediate, at: last, note: "issuer certificate not found")
        }
    }

    // MARK: Layer 2: the library's verdict on the whole path

    /// Flags for the whole-path verification: exactly this order, weak algorithms left to the core, unknown
    /// critical extensions left to the core (which reports CriticalExtensions), time checks on (thread time).
    private static let pathFlags: UInt32 = GnuTLSLibrary.permissiveAlgorithmFlags
        | GNUTLS_VERIFY_DO_NOT_ALLOW_UNSORTED_CHAIN.rawValue | GNUTLS_VERIFY_IGNORE_UNKNOWN_CRIT_EXTENSIONS.rawValue

    /// GnuTLS's status for the whole anchored path; nil for a path that does not end at an anchor, or whose
    /// leaf is itself the anchor (trusted as given: GnuTLS drops or short-circuits it).
    private func libraryVerdict() throws(BackendError) -> GnuTLSStatus? {
        guard path.endsAtAnchor, certificates.count >= 2,
              let anchor = path.certificates.last,
              let list = store.trustList(for: anchor.derEncoded)
        else { return nil }
        return GnuTLSStatus(rawValue: try list.verify(certificates, flags: Self.pathFlags))
    }

    private mutating func applyLibraryVerdict(_ status: GnuTLSStatus, _ located: Located) {
        guard !status.isEmpty else { return }
        let words = status.libraryDescription
        attribute(status, .expired, located.time, fallback: .temporalValidity, words)
        attribute(status, .notActivated, located.time, fallback: .temporalValidity, words)
        attribute(status, .signerNotCA, located.notCA, fallback: .basicConstraintsCA, words)
        if status.contains(.signatureFailure) && !status.contains(.insecureAlgorithm) {
            attribute(status, .signatureFailure, located.signature, fallback: .signature, words)
        }
        if status.contains(.signerConstraintsFailure) && located.constraints.isEmpty {
            // pathLen and keyCertSign are ruled out per certificate above, so the remaining cause GnuTLS
            // reports with this bit is a name-constraints violation; the leaf is the name being constrained.
            findings.record(.nameConstraints, at: 0, note: words)
        }
        if status.contains(.signerNotFound) && located.signature.isEmpty {
            findings.record(.missingIntermediate, at: certificates.count - 2, note: words)
        }
        if status.contains(.insecureAlgorithm) { findings.notes.append("GnuTLS: \(words) (the core decides)") }
    }

    /// Records nothing new when per-certificate checks already located `bit`; else records `fallback` on the leaf.
    private mutating func attribute(
        _ status: GnuTLSStatus, _ bit: GnuTLSStatus, _ located: Set<Int>, fallback: TrustCheck, _ words: String
    ) {
        guard status.contains(bit), located.isEmpty else { return }
        findings.record(fallback, at: 0, note: "GnuTLS: \(words)")
    }

    // MARK: Revocation

    /// Each CRL may revoke only certificates issued by the path certificate that signed it.
    private mutating func checkRevocation(_ crls: [CertificateRevocationList]) throws(BackendError) {
        guard !crls.isEmpty, certificates.count >= 2 else { return }
        let lists = try crls.map { crl throws(BackendError) in try GnuTLSRevocationList(bytes: crl.derEncoded) }
        for list in lists {
            for issuerIndex in certificates.indices.dropFirst() where list.isIssued(by: certificates[issuerIndex]) {
                let status = GnuTLSStatus(rawValue: try list.status(issuedBy: certificates[issuerIndex]))
                if status.contains(.signatureFailure) || status.contains(.signerNotFound) || status.contains(.signerNotCA) {
                    findings.notes.append("[\(issuerIndex)] CRL ignored: \(status.libraryDescription)")
                    continue
                }
                if !status.isEmpty { findings.notes.append("[\(issuerIndex)] CRL: \(status.libraryDescription)") }
                let subjectIndex = issuerIndex - 1
                if try list.revokes(certificates[subjectIndex]) {
                    findings.record(.revocation, at: subjectIndex, note: "certificate is revoked by its issuer's CRL")
                }
            }
        }
    }
}
