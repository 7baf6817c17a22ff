import CertKit
internal import CGnuTLS

/// Owns one `gnutls_x509_crl_t`, imported from DER (or PEM), freed once in `deinit`.
final class GnuTLSRevocationList {
    /// The handle; never leaves the module.
    let handle: gnutls_x509_crl_t

    /// Imports `bytes`, DER first, then PEM.
    init(bytes: [UInt8]) throws(BackendError) {
        try GnuTLSLibrary.ensureInitialized()
        var created: gnutls_x509_crl_t?
        try GnuTLSLibrary.check(gnutls_x509_crl_init(&created), "gnutls_x509_crl_init")
        guard let created else { throw BackendError(.library, "gnutls_x509_crl_init returned no CRL") }
        var code = GnuTLSLibrary.withDatum(bytes) { datum in gnutls_x509_crl_import(created, &datum, GNUTLS_X509_FMT_DER) }
        if code < 0 {
            code = GnuTLSLibrary.withDatum(bytes) { datum in gnutls_x509_crl_import(created, &datum, GNUTLS_X509_FMT_PEM) }
        }
        if code < 0 {
            gnutls_x509_crl_deinit(created)
            throw BackendError(.refusedInput, "gnutls_x509_crl_import: \(GnuTLSLibrary.errorString(code))")
        }
        handle = created
    }

    deinit { gnutls_x509_crl_deinit(handle) }

    /// True when `certificate`'s subject is the CRL's issuer name.
    func isIssued(by certificate: GnuTLSCertificate) -> Bool {
        gnutls_x509_crl_check_issuer(handle, certificate.handle) != 0
    }

    /// True when `certificate`'s key verifies the CRL's signature (`gnutls_x509_crl_verify`). A name match alone
    /// does not make a CRL an issuer's: a self-issued intermediate shares its CA's name, not its key.
    func isSigned(by certificate: GnuTLSCertificate) -> Bool {
        var issuers: [gnutls_x509_crt_t?] = [certificate.handle]
        var status: UInt32 = 0
        let code = gnutls_x509_crl_verify(handle, &issuers, 1, GnuTLSLibrary.permissiveAlgorithmFlags, &status)
        return code >= 0 && status == 0
    }

    /// True when the CRL lists `certificate` (same issuer name and serial), `gnutls_x509_crt_check_revocation`.
    func revokes(_ certificate: GnuTLSCertificate) throws(BackendError) -> Bool {
        var lists: [gnutls_x509_crl_t?] = [handle]
        let code = gnutls_x509_crt_check_revocation(certificate.handle, &lists, 1)
        return try GnuTLSLibrary.check(code, "gnutls_x509_crt_check_revocation") == 1
    }
}
