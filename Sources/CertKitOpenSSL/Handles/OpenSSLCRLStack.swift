import CertKit
internal import COpenSSL
internal import COpenSSLShims

/// Owns one `STACK_OF(X509_CRL)` and a reference on each CRL pushed onto it; frees them in `deinit`.
final class OpenSSLCRLStack {
    /// The `STACK_OF(X509_CRL) *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    /// Creates a stack holding `crls`, in order.
    init(_ crls: [OpenSSLCRL]) throws(BackendError) {
        guard let stack = certkit_sk_X509_CRL_new_null() else {
            throw OpenSSLErrorQueue.error("sk_X509_CRL_new_null failed")
        }
        handle = stack
        for crl in crls {
            guard X509_CRL_up_ref(crl.handle) == 1 else { throw OpenSSLErrorQueue.error("X509_CRL_up_ref failed") }
            guard certkit_sk_X509_CRL_push(stack, crl.handle) > 0 else {
                X509_CRL_free(crl.handle)
                throw OpenSSLErrorQueue.error("sk_X509_CRL_push failed")
            }
        }
    }

    deinit { certkit_sk_X509_CRL_pop_free(handle) }
}
