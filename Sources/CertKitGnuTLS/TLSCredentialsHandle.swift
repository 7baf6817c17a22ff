import CertKit
internal import CertKitSockets
internal import CGnuTLS

/// Owns one `gnutls_certificate_credentials_t` with no trust anchors and no verification: the handshake only
/// captures the server's chain for certkit to evaluate. Frees it exactly once in `deinit`.
final class TLSCredentialsHandle {
    /// The credentials; valid for the lifetime of this object.
    let handle: gnutls_certificate_credentials_t

    /// Allocates empty certificate credentials.
    init() throws(TLSConnectError) {
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
    }

    deinit { gnutls_certificate_free_credentials(handle) }
}
