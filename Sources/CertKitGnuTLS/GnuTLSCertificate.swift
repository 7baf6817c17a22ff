import CertKit
internal import CGnuTLS
internal import CGnuTLSShims

/// Owns one `gnutls_x509_crt_t`, imported from DER, freed once in `deinit`.
final class GnuTLSCertificate {
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
            throw BackendError("gnutls_x509_crt_import: \(error.message)")
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

    /// True when the subject and issuer names match (GnuTLS's comparison).
    var isSelfIssued: Bool { gnutls_x509_crt_check_issuer(handle, handle) != 0 }

    /// True when `issuer`'s subject is this certificate's issuer name.
    func isIssued(by issuer: GnuTLSCertificate) -> Bool { gnutls_x509_crt_check_issuer(handle, issuer.handle) != 0 }

    /// The basicConstraints extension, or nil when absent.
    var basicConstraints: (isCA: Bool, pathLength: Int?)? {
        var critical: UInt32 = 0
        var ca: UInt32 = 0
        var pathLength: Int32 = -1
        guard gnutls_x509_crt_get_basic_constraints(handle, &critical, &ca, &pathLength) >= 0 else { return nil }
        return (ca != 0, pathLength >= 0 ? Int(pathLength) : nil)
    }

    /// The keyUsage bits (`GNUTLS_KEY_*`), or nil when the extension is absent.
    var keyUsage: UInt32? {
        var usage: UInt32 = 0
        var critical: UInt32 = 0
        guard gnutls_x509_crt_get_key_usage(handle, &usage, &critical) >= 0 else { return nil }
        return usage
    }

    /// True when the signature uses a digest GnuTLS may refuse outright (MD2, MD5) whatever the flags.
    var hasBrokenSignatureDigest: Bool {
        let algorithm = gnutls_x509_crt_get_signature_algorithm(handle)
        guard algorithm >= 0 else { return false }
        let digest = gnutls_sign_get_hash_algorithm(gnutls_sign_algorithm_t(UInt32(algorithm)))
        return digest == GNUTLS_DIG_MD5 || digest == GNUTLS_DIG_MD2
    }

    /// Verifies only this certificate's signature with `issuer`'s key (`gnutls_x509_crt_verify` against a
    /// one-entry CA list, CA and time checks off, weak digests allowed). Returns the GnuTLS status word.
    func signatureStatus(issuedBy issuer: GnuTLSCertificate) throws(BackendError) -> UInt32 {
        let flags = GnuTLSLibrary.permissiveAlgorithmFlags | GNUTLS_VERIFY_DISABLE_CA_SIGN.rawValue
            | GNUTLS_VERIFY_DISABLE_TIME_CHECKS.rawValue | GNUTLS_VERIFY_DISABLE_TRUSTED_TIME_CHECKS.rawValue
            | GNUTLS_VERIFY_IGNORE_UNKNOWN_CRIT_EXTENSIONS.rawValue
        var status: UInt32 = 0
        var issuers: [gnutls_x509_crt_t?] = [issuer.handle]
        let code = withExtendedLifetime(issuer) { gnutls_x509_crt_verify(handle, &issuers, 1, flags, &status) }
        try GnuTLSLibrary.check(code, "gnutls_x509_crt_verify")
        return status
    }
}
