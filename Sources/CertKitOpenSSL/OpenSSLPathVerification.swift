import CertKit
import Foundation

/// One verification of one candidate path: imports the path, sets up the context, runs OpenSSL, maps the result.
struct OpenSSLPathVerification {
    let path: CandidatePath
    let anchors: OpenSSLPreparedAnchors
    let date: Date
    let crls: [CertificateRevocationList]
    /// Where parsed path certificates are reused from (a cache with capacity 0 parses every time).
    let certificateCache: CertificateHandleCache<OpenSSLCertificate>

    /// Runs the verification.
    func run() throws(BackendError) -> PathFindings {
        var findings = PathFindings(count: path.certificates.count)
        guard !path.certificates.isEmpty else { return findings }

        // The trusted side: the store that trusts exactly the path's anchor, or nothing.
        let store: OpenSSLStore
        var anchorHandle: OpenSSLCertificate?
        var nonAnchors = path.certificates
        if path.endsAtAnchor, let anchor = path.certificates.last {
            guard let entry = anchors.entry(for: anchor) else {
                throw BackendError("openssl: the path's anchor \(anchor) is not in the prepared anchor store")
            }
            store = entry.store
            anchorHandle = entry.certificate
            nonAnchors.removeLast()
        } else {
            store = anchors.emptyStore
        }

        // The untrusted side: exactly the certificates between the leaf and the anchor (leaf-as-anchor: none).
        var handles: [OpenSSLCertificate] = []
        for certificate in nonAnchors {
            handles.append(try certificateCache.handle(for: certificate.derEncoded) { der throws(BackendError) in
                try OpenSSLCertificate(der: der)
            })
        }
        guard let target = handles.first ?? anchorHandle else { return findings }
        let untrusted = try OpenSSLCertificateStack(Array(handles.dropFirst()))
        let crlStack = crls.isEmpty ? nil : try OpenSSLCRLStack(crls.map { crl throws(BackendError) in
            try OpenSSLCRL(der: crl.derEncoded)
        })

        let context = try OpenSSLStoreContext(
            store: store, target: target, untrusted: untrusted, date: date, crls: crlStack)
        let expected = handles + (anchorHandle.map { [$0] } ?? [])
        let recorder = VerificationRecorder(path: expected)
        try context.verify(recordingInto: recorder)
        X509VerifyErrorMapping.record(recorder.failures, for: path, into: &findings)

        // Depth equals path index only if OpenSSL built the same chain; say so when it did not.
        let built = context.builtChain
        let sameChain = zip(built, expected).allSatisfy { $1.isSame(as: $0) }
        if !sameChain || (built.count != expected.count && recorder.failures.isEmpty) {
            findings.notes.append(
                "openssl built a chain of \(built.count) certificates that differs from the candidate path of "
                    + "\(expected.count); failure depths may not match path indices")
        }
        return findings
    }
}
