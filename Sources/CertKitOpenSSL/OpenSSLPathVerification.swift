import CertKit
import Foundation
internal import COpenSSL

/// OpenSSL's own verdict on one candidate path (the audit mode): imports the path, sets up the context, runs
/// `X509_verify_cert`, and reports every error as a neutral fact (``X509VerifyStatus``); the core judges them.
struct OpenSSLPathVerification {
    let path: CandidatePath
    let anchors: OpenSSLPreparedAnchors
    let date: Date
    let crls: [CertificateRevocationList]
    /// Where parsed path certificates are reused from (a cache with capacity 0 parses every time).
    let certificateCache: CertificateHandleCache<OpenSSLCertificate>

    private static func importRefused(at index: Int, _ error: BackendError) -> LibraryFact {
        LibraryFact(.importRefused, index: index, words: "refuses to import the certificate: \(error.message)")
    }

    /// Runs the verification.
    func run() throws(BackendError) -> [LibraryFact] {
        guard !path.certificates.isEmpty else { return [] }

        // The trusted side: the store that trusts exactly the path's anchor, or nothing. A certificate OpenSSL
        // refuses to import (anchor or not) is an importRefused fact on it, which the core weighs like any other
        // refusal: explained by a core rule that fails there, else a LibraryVerdict failure (never a BackendError
        // that would hide the core's verdict).
        var refused: [LibraryFact] = []
        var store = anchors.emptyStore
        var anchorHandle: OpenSSLCertificate?
        var nonAnchors = path.certificates
        if path.endsAtAnchor, let anchor = path.certificates.last {
            nonAnchors.removeLast()
            do throws(BackendError) {
                guard let entry = try anchors.entry(for: anchor) else {
                    throw BackendError(.wrongBackend, "openssl: the path's anchor \(anchor) is not in the prepared anchor store")
                }
                store = entry.store
                anchorHandle = entry.certificate
            } catch {
                if anchors.importFailure(for: anchor) == nil { throw error }
                refused.append(Self.importRefused(at: path.certificates.count - 1, error))
            }
        }

        // The untrusted side: exactly the certificates between the leaf and the anchor (leaf-as-anchor: none).
        var handles: [OpenSSLCertificate] = []
        for (index, certificate) in nonAnchors.enumerated() {
            do throws(BackendError) {
                handles.append(try certificateCache.handle(for: certificate.derEncoded) { der throws(BackendError) in
                    try OpenSSLCertificate(der: der)
                })
            } catch {
                refused.append(Self.importRefused(at: index, error))
            }
        }
        guard refused.isEmpty else { return refused.sorted { ($0.index ?? 0) < ($1.index ?? 0) } }
        guard let target = handles.first ?? anchorHandle else { return [] }
        let untrusted = try OpenSSLCertificateStack(Array(handles.dropFirst()))
        let unambiguous = Self.unambiguousCRLs(crls, path: path)
        let crlStack = unambiguous.isEmpty ? nil : try OpenSSLCRLStack(unambiguous.map { crl throws(BackendError) in
            try OpenSSLCRL(der: crl.derEncoded)
        })

        let context = try OpenSSLStoreContext(
            store: store, target: target, untrusted: untrusted, date: date, crls: crlStack)
        let expected = handles + (anchorHandle.map { [$0] } ?? [])
        let recorder = VerificationRecorder(path: expected)
        try context.verify(recordingInto: recorder)
        var facts = X509VerifyStatus.facts(recorder.failures)

        // Depth equals path index only if OpenSSL built the same chain. A clean verdict on another chain is no
        // opinion on this one.
        let built = context.builtChain
        let sameChain = built.count == expected.count && zip(built, expected).allSatisfy { $1.isSame(as: $0) }
        if !sameChain && recorder.failures.isEmpty {
            facts.append(LibraryFact(
                .otherChain,
                words: "verified a chain of \(built.count) certificates, not the candidate path of \(expected.count)"))
        }
        return facts
    }

    /// The CRLs OpenSSL can be given without being misled: OpenSSL applies a CRL to every certificate whose issuer
    /// has the CRL's issuer name, so a CRL whose issuer name two CAs of the path share (a self-issued intermediate
    /// under its root) could be applied to the certificates of the one that did not sign it. Those CRLs are left
    /// to the core, which matches each CRL to the issuer whose key verifies it.
    static func unambiguousCRLs(_ crls: [CertificateRevocationList], path: CandidatePath) -> [CertificateRevocationList] {
        let issuers = path.certificates.dropFirst()
        return crls.filter { crl in issuers.filter { crl.issuer.matches($0.subject) }.count < 2 }
    }
}
