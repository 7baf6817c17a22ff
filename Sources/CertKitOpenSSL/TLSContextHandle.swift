import CertKit
internal import CertKitSockets
internal import COpenSSL

/// Owns one client `SSL_CTX` whose verify mode is `SSL_VERIFY_NONE`: the handshake never decides trust, it only
/// captures the chain for certkit to evaluate. Frees it exactly once in `deinit`.
final class TLSContextHandle {
    /// The `SSL_CTX *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    /// Creates a TLS client context (TLS 1.2 and 1.3 by OpenSSL's defaults) with verification off, holding
    /// `identity` (certificate, intermediates, key) to present when the server requests a client certificate.
    init(identity: Identity? = nil) throws(TLSConnectError) {
        OpenSSLErrorQueue.clear()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw .handshake(OpenSSLErrorQueue.error("SSL_CTX_new failed").message)
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        handle = context
        if let identity { try Self.use(identity, in: context) }
    }

    deinit { SSL_CTX_free(handle) }

    /// Installs the identity. The context takes its own references on the certificates and the key
    /// (`SSL_CTX_use_certificate`, `SSL_CTX_use_PrivateKey`, `SSL_CTX_add1_chain_cert`), so the Swift owners may
    /// go away afterwards. A key held by another backend is brought over as PKCS#8.
    static func use(_ identity: Identity, in handle: OpaquePointer) throws(TLSConnectError) {
        let key: OpenSSLPrivateKey
        do {
            if let own = identity.privateKey.storage as? OpenSSLPrivateKey {
                key = own
            } else {
                key = try OpenSSLPrivateKey(encoded: identity.privateKey.storage.pkcs8DER(), password: nil)
            }
        } catch {
            throw .identity(error.description)
        }
        do throws(BackendError) {
            let leaf = try OpenSSLCertificate(der: identity.certificate.derEncoded)
            guard SSL_CTX_use_certificate(handle, leaf.handle) == 1 else {
                throw OpenSSLErrorQueue.error("SSL_CTX_use_certificate failed")
            }
            guard SSL_CTX_use_PrivateKey(handle, key.handle) == 1, SSL_CTX_check_private_key(handle) == 1 else {
                throw OpenSSLErrorQueue.error("the private key does not fit the certificate")
            }
            for intermediate in identity.intermediates {
                let certificate = try OpenSSLCertificate(der: intermediate.derEncoded)
                // SSL_CTX_add1_chain_cert is a macro over SSL_CTX_ctrl; this is its expansion (takes a reference).
                guard SSL_CTX_ctrl(handle, SSL_CTRL_CHAIN_CERT, 1, UnsafeMutableRawPointer(certificate.handle)) == 1 else {
                    throw OpenSSLErrorQueue.error("SSL_CTX_add1_chain_cert failed")
                }
            }
        } catch {
            throw .identity(error.message)
        }
        OpenSSLErrorQueue.clear()
    }
}
