import CertKit
internal import CGnuTLS

/// Owns one `gnutls_pubkey_t`, imported from a DER SubjectPublicKeyInfo, freed once in `deinit`.
final class GnuTLSPublicKey {
    /// The handle; never leaves the module.
    let handle: gnutls_pubkey_t

    /// Imports a DER SubjectPublicKeyInfo.
    init(spki: [UInt8]) throws(BackendError) {
        try GnuTLSLibrary.ensureInitialized()
        var created: gnutls_pubkey_t?
        try GnuTLSLibrary.check(gnutls_pubkey_init(&created), "gnutls_pubkey_init")
        guard let created else { throw BackendError("gnutls_pubkey_init returned no key") }
        let code = GnuTLSLibrary.withDatum(spki) { datum in gnutls_pubkey_import(created, &datum, GNUTLS_X509_FMT_DER) }
        if code < 0 {
            gnutls_pubkey_deinit(created)
            throw BackendError("gnutls_pubkey_import: \(GnuTLSLibrary.errorString(code))")
        }
        handle = created
    }

    deinit { gnutls_pubkey_deinit(handle) }

    /// Verifies `certificate`'s signature over its tbsCertificate (as the core parsed it) with this key.
    /// Returns nil when it verifies, else GnuTLS's reason; weak digests are allowed (the core judges them).
    func verifySignature(of certificate: Certificate) -> String? {
        let algorithm = certificate.signatureAlgorithm.oid.withCString { gnutls_oid_to_sign($0) }
        guard algorithm != GNUTLS_SIGN_UNKNOWN else {
            return "signature algorithm \(certificate.signatureAlgorithm.oid) unknown to GnuTLS"
        }
        let flags = GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1.rawValue | GNUTLS_VERIFY_ALLOW_SIGN_RSA_MD5.rawValue
            | GNUTLS_VERIFY_ALLOW_SIGN_RSA_MD2.rawValue
        let code = GnuTLSLibrary.withDatum(certificate.tbsCertificateBytes) { data in
            GnuTLSLibrary.withDatum(certificate.signatureBytes) { signature in
                gnutls_pubkey_verify_data2(handle, algorithm, flags, &data, &signature)
            }
        }
        return code < 0 ? GnuTLSLibrary.errorString(code) : nil
    }

    /// True when `certificate` is self-issued and its own key verifies its signature. A self-issued certificate
    /// with another key (a key rollover) is not self-signed: its issuer is still missing.
    static func isSelfSigned(_ certificate: Certificate, selfIssued: Bool) -> Bool {
        guard selfIssued, let key = try? GnuTLSPublicKey(spki: certificate.publicKey.derEncoded) else { return false }
        return key.verifySignature(of: certificate) == nil
    }
}
