import CertKit

/// Anchors compiled into OpenSSL stores once, shared read-only by every verification and thread.
///
/// Design: one `X509_STORE` **per anchor**, built eagerly here, keyed by the anchor's DER. The core's chain
/// builder has already chosen the anchor that ends a candidate path, and OpenSSL searches its trusted store
/// first at every step of its own chain building; with one big store, an anchor with the same subject name (a
/// re-keyed or cross-signed root) could be picked instead of the chosen one. A store holding only the chosen
/// anchor makes OpenSSL verify exactly the candidate path. Paths that do not end at an anchor are verified
/// against an empty store. Building is linear in the number of anchors and done once per anchor set.
/// Each store also carries a `check_issued` hook (see ``OpenSSLStore``) so that, between leaf and anchor, OpenSSL
/// links exactly the candidate path's certificates.
///
/// `@unchecked Sendable` is safe: every store and certificate handle is created and filled in `init` and never
/// mutated afterwards; verifications only read them, and OpenSSL locks its own `X509_STORE` lookups and the
/// lazily cached extension data of an `X509`.
final class OpenSSLPreparedAnchors: PreparedAnchorStore, @unchecked Sendable {
    /// One anchor: its OpenSSL handle and the store that trusts only it.
    struct Entry {
        let certificate: OpenSSLCertificate
        let store: OpenSSLStore
    }

    let anchors: [Certificate]
    /// Stores by anchor DER.
    private let entries: [[UInt8]: Entry]
    /// Why OpenSSL could not import an anchor (`d2i_X509` refuses, e.g., a subject that is not valid UTF-8), by
    /// anchor DER. Only the audit mode's `X509_verify_cert` needs the anchor as an `X509`; the core verifies the
    /// anchor's signatures from its SubjectPublicKeyInfo, so the import failure is the audit's (an
    /// `importRefused` library fact when it runs on a path ending there), not every evaluation's: in the default mode both
    /// backends give the core's verdict on such an anchor.
    private let importFailures: [[UInt8]: BackendError]
    /// A store trusting nothing, for incomplete paths.
    let emptyStore: OpenSSLStore
    /// The anchors' keys and verification templates, made when an anchor first signs a link and kept with the
    /// anchors (as the stores are), whatever the backend's own cache capacity: the same bounded caches the backend
    /// uses, keyed the same way.
    let signerKeys = CertificateHandleCache<OpenSSLPublicKey>(capacity: OpenSSLPreparedAnchors.signerKeyCapacity)
    let verifyTemplates = CertificateHandleCache<OpenSSLVerifyTemplate>(capacity: OpenSSLPreparedAnchors.signerKeyCapacity)
    /// The most anchor keys (and templates) kept.
    static let signerKeyCapacity = 256

    /// Imports every anchor and builds its store.
    init(anchors: [Certificate]) throws(BackendError) {
        self.anchors = anchors
        var entries: [[UInt8]: Entry] = [:]
        var importFailures: [[UInt8]: BackendError] = [:]
        for anchor in anchors where entries[anchor.derEncoded] == nil && importFailures[anchor.derEncoded] == nil {
            let certificate: OpenSSLCertificate
            do {
                certificate = try OpenSSLCertificate(der: anchor.derEncoded)
            } catch {
                importFailures[anchor.derEncoded] = error
                OpenSSLErrorQueue.clear()
                continue
            }
            entries[anchor.derEncoded] = Entry(certificate: certificate, store: try OpenSSLStore(trusting: [certificate]))
        }
        self.entries = entries
        self.importFailures = importFailures
        self.emptyStore = try OpenSSLStore(trusting: [])
    }

    /// Why OpenSSL could not import `anchor`, if it could not.
    func importFailure(for anchor: Certificate) -> BackendError? { importFailures[anchor.derEncoded] }

    /// The entry for `anchor`, when it is one of the prepared anchors; the import error when OpenSSL could not
    /// read it.
    func entry(for anchor: Certificate) throws(BackendError) -> Entry? {
        if let failure = importFailures[anchor.derEncoded] { throw failure }
        return entries[anchor.derEncoded]
    }
}
