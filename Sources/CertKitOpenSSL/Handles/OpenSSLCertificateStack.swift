import CertKit
internal import COpenSSL
internal import COpenSSLShims

/// Owns one `STACK_OF(X509)` and a reference on each certificate pushed onto it; frees them in `deinit`.
final class OpenSSLCertificateStack {
    /// The `STACK_OF(X509) *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    /// Creates a stack holding `certificates`, in order.
    init(_ certificates: [OpenSSLCertificate]) throws(BackendError) {
        guard let stack = certkit_sk_X509_new_null() else {
            throw OpenSSLErrorQueue.error("sk_X509_new_null failed")
        }
        handle = stack
        for certificate in certificates {
            guard X509_up_ref(certificate.handle) == 1 else { throw OpenSSLErrorQueue.error("X509_up_ref failed") }
            guard certkit_sk_X509_push(stack, certificate.handle) > 0 else {
                X509_free(certificate.handle)
                throw OpenSSLErrorQueue.error("sk_X509_push failed")
            }
        }
    }

    deinit { certkit_sk_X509_pop_free(handle) }
}
