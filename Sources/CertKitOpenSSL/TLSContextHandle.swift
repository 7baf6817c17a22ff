import CertKit
internal import CertKitSockets
internal import COpenSSL

/// Owns one client `SSL_CTX` whose verify mode is `SSL_VERIFY_NONE`: the handshake never decides trust, it only
/// captures the chain for certkit to evaluate. Frees it exactly once in `deinit`.
final class TLSContextHandle {
    /// The `SSL_CTX *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    /// Creates a TLS client context (TLS 1.2 and 1.3 by OpenSSL's defaults) with verification off.
    init() throws(TLSConnectError) {
        OpenSSLErrorQueue.clear()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw .handshake(OpenSSLErrorQueue.error("SSL_CTX_new failed").message)
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        handle = context
    }

    deinit { SSL_CTX_free(handle) }
}
