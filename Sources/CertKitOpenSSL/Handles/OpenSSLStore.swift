import CertKit
internal import COpenSSL

/// Owns one `X509_STORE` of trusted certificates; frees it exactly once in `deinit`.
///
/// Its `check_issued` hook makes OpenSSL's chain building follow the candidate path exactly (see
/// ``VerificationRecorder/checkIssued(context:subject:issuer:)``).
///
/// Filled once at construction and never mutated afterwards, so any number of threads may verify against it
/// (OpenSSL locks its own lookups).
final class OpenSSLStore {
    /// The `X509_STORE *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    /// Creates a store trusting exactly `anchors` (none: an empty store, for paths that do not end at an anchor).
    init(trusting anchors: [OpenSSLCertificate]) throws(BackendError) {
        guard let store = X509_STORE_new() else { throw OpenSSLErrorQueue.error("X509_STORE_new failed") }
        handle = store
        // Set before the store is shared, never changed afterwards.
        X509_STORE_set_check_issued(store) { context, subject, issuer in
            guard let context, let subject, let issuer else { return 0 }
            return VerificationRecorder.checkIssued(context: context, subject: subject, issuer: issuer)
        }
        for anchor in anchors {
            guard X509_STORE_add_cert(store, anchor.handle) == 1 else {
                throw OpenSSLErrorQueue.error("X509_STORE_add_cert failed")
            }
        }
    }

    deinit { X509_STORE_free(handle) }
}
