import CertKit
internal import CGnuTLS
internal import CGnuTLSShims

/// Owns one `gnutls_x509_crt_t`, imported from DER, freed once in `deinit`.
///
/// `@unchecked Sendable` is safe: `handle` is set once in `init` and freed only in `deinit`, after the last user
/// (the backend's handle cache shares one certificate across threads). After import the backend only reads it
/// (field getters, `gnutls_x509_trust_list_verify_crt2` over a list of them), which GnuTLS does without
/// modifying the certificate.
final class GnuTLSCertificate: @unchecked Sendable {
    /// The handle; never leaves the module.
    let handle: gnutls_x509_crt_t

    /// Imports `der` with `gnutls_x509_crt_import`; the error carries GnuTLS's code.
    init(importing der: [UInt8]) throws(GnuTLSCode) {
        let initialization = GnuTLSLibrary.initializationCode
        if initialization < 0 { throw GnuTLSCode(initialization) }
        var created: gnutls_x509_crt_t?
        let initCode = gnutls_x509_crt_init(&created)
        guard initCode >= 0, let created else { throw GnuTLSCode(initCode < 0 ? initCode : GNUTLS_E_MEMORY_ERROR) }
        let code = GnuTLSLibrary.withDatum(der) { datum in gnutls_x509_crt_import(created, &datum, GNUTLS_X509_FMT_DER) }
        if code < 0 {
            gnutls_x509_crt_deinit(created)
            throw GnuTLSCode(code)
        }
        handle = created
    }

    /// Imports `der` with `gnutls_x509_crt_import`.
    convenience init(der: [UInt8]) throws(BackendError) {
        do {
            try self.init(importing: der)
        } catch {
            throw BackendError(.refusedInput, "gnutls_x509_crt_import: \(error.message)")
        }
    }

    deinit { gnutls_x509_crt_deinit(handle) }

    /// The DER GnuTLS holds for the certificate (`gnutls_x509_crt_export2`).
    func exportDER() throws(BackendError) -> [UInt8] {
        var datum = gnutls_datum_t(data: nil, size: 0)
        try GnuTLSLibrary.check(gnutls_x509_crt_export2(handle, GNUTLS_X509_FMT_DER, &datum), "gnutls_x509_crt_export2")
        return GnuTLSLibrary.takeDatum(datum)
    }

    /// notBefore as `time_t`.
    var activationTime: Int { gnutls_x509_crt_get_activation_time(handle) }
    /// notAfter as `time_t`.
    var expirationTime: Int { gnutls_x509_crt_get_expiration_time(handle) }
    /// The X.509 version (1, 2 or 3).
    var version: Int { Int(gnutls_x509_crt_get_version(handle)) }

    /// The basicConstraints extension, or nil when absent.
    var basicConstraints: (isCA: Bool, pathLength: Int?)? {
        var critical: UInt32 = 0
        var ca: UInt32 = 0
        var pathLength: Int32 = -1
        guard gnutls_x509_crt_get_basic_constraints(handle, &critical, &ca, &pathLength) >= 0 else { return nil }
        return (ca != 0, pathLength >= 0 ? Int(pathLength) : nil)
    }

    /// GnuTLS's reading of the signature algorithm's digest (`gnutls_sign_get_hash_algorithm`).
    var signatureDigest: LibrarySignatureDigest {
        let algorithm = gnutls_x509_crt_get_signature_algorithm(handle)
        guard algorithm > 0 else { return .unknown }
        let sign = gnutls_sign_algorithm_t(UInt32(algorithm))
        if sign == GNUTLS_SIGN_EDDSA_ED25519 || sign == GNUTLS_SIGN_EDDSA_ED448 { return .none }
        switch gnutls_sign_get_hash_algorithm(sign) {
        case GNUTLS_DIG_MD2: return .digest(.md2)
        case GNUTLS_DIG_MD5: return .digest(.md5)
        case GNUTLS_DIG_SHA1: return .digest(.sha1)
        case GNUTLS_DIG_SHA224: return .digest(.sha224)
        case GNUTLS_DIG_SHA256: return .digest(.sha256)
        case GNUTLS_DIG_SHA384: return .digest(.sha384)
        case GNUTLS_DIG_SHA512: return .digest(.sha512)
        default: return .unknown
        }
    }
}
