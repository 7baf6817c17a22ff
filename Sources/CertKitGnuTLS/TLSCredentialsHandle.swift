import CertKit
internal import CertKitSockets
internal import CGnuTLS

/// Owns one `gnutls_certificate_credentials_t` with no trust anchors and no verification: the handshake only
/// captures the server's chain for certkit to evaluate. Frees it exactly once in `deinit`.
final class TLSCredentialsHandle {
    /// The credentials; valid for the lifetime of this object.
    let handle: gnutls_certificate_credentials_t

    /// Allocates certificate credentials, holding `identity` (certificate, intermediates, key) to present when
    /// the server requests a client certificate.
    init(identity: Identity? = nil) throws(TLSConnectError) {
        do {
            try GnuTLSLibrary.ensureInitialized()
        } catch {
            throw .handshake(error.message)
        }
        var credentials: gnutls_certificate_credentials_t?
        let code = gnutls_certificate_allocate_credentials(&credentials)
        guard code >= 0, let credentials else {
            throw .handshake("gnutls_certificate_allocate_credentials: \(GnuTLSLibrary.errorString(code))")
        }
        handle = credentials
        if let identity { try use(identity) }
    }

    /// Installs the identity (`gnutls_certificate_set_x509_key` copies the certificates and the key, so the Swift
    /// owners may go away afterwards). A key held by another backend is brought over as PKCS#8.
    private func use(_ identity: Identity) throws(TLSConnectError) {
        let key: GnuTLSPrivateKey
        do {
            if let own = identity.privateKey.storage as? GnuTLSPrivateKey {
                key = own
            } else {
                key = try GnuTLSPrivateKey(encoded: identity.privateKey.storage.pkcs8DER(), password: nil)
            }
        } catch {
            throw .identity(error.description)
        }
        let certificates: [GnuTLSCertificate]
        do {
            certificates = try identity.certificates.map { certificate throws(BackendError) in
                try GnuTLSCertificate(der: certificate.derEncoded)
            }
        } catch {
            throw .identity(error.message)
        }
        var list: [gnutls_x509_crt_t?] = certificates.map(\.handle)
        let code = withExtendedLifetime(certificates) {
            gnutls_certificate_set_x509_key(handle, &list, Int32(list.count), key.handle)
        }
        if code < 0 { throw .identity("gnutls_certificate_set_x509_key: \(GnuTLSLibrary.errorString(code))") }
    }

    deinit { gnutls_certificate_free_credentials(handle) }
}
