import CertKit
internal import CGnuTLS

/// Owns one `gnutls_pubkey_t`, imported from a DER SubjectPublicKeyInfo, freed once in `deinit`.
///
/// `@unchecked Sendable` is safe: `handle` is set once in `init` and freed only in `deinit`, after the last user
/// (the backend's key cache shares one key across threads). The backend only verifies with it
/// (`gnutls_pubkey_verify_data2`), which reads the key and keeps no per-call state in it.
final class GnuTLSPublicKey: @unchecked Sendable {
    /// The handle; never leaves the module.
    let handle: gnutls_pubkey_t

    /// Imports a DER SubjectPublicKeyInfo.
    init(spki: [UInt8]) throws(BackendError) {
        try GnuTLSLibrary.ensureInitialized()
        var created: gnutls_pubkey_t?
        try GnuTLSLibrary.check(gnutls_pubkey_init(&created), "gnutls_pubkey_init")
        guard let created else { throw BackendError(.library, "gnutls_pubkey_init returned no key") }
        let code = GnuTLSLibrary.withDatum(spki) { datum in gnutls_pubkey_import(created, &datum, GNUTLS_X509_FMT_DER) }
        if code < 0 {
            gnutls_pubkey_deinit(created)
            throw BackendError(.refusedInput, "gnutls_pubkey_import: \(GnuTLSLibrary.errorString(code))")
        }
        handle = created
    }

    deinit { gnutls_pubkey_deinit(handle) }

    /// Verifies `input`'s signature with this key as its scheme says (`gnutls_pubkey_verify_data2`); valid only
    /// when GnuTLS returns success. SHA-1 is allowed here (the core's floors judge it); broken digests never get
    /// here. RSASSA-PSS uses the salt GnuTLS derives from the digest, which is the only salt the allowlist accepts.
    func verify(_ input: SignatureInput) -> SignatureVerdict {
        guard let algorithm = signAlgorithm(for: input.scheme) else {
            return .invalid("GnuTLS has no algorithm for \(input.scheme) with this key")
        }
        let code = GnuTLSLibrary.withDatum(input.signedBytes) { data in
            GnuTLSLibrary.withDatum(input.signature) { signature in
                gnutls_pubkey_verify_data2(handle, algorithm, GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1.rawValue, &data, &signature)
            }
        }
        return code >= 0 ? .valid : .invalid("gnutls_pubkey_verify_data2: \(GnuTLSLibrary.errorString(code))")
    }

    /// The GnuTLS sign algorithm for `scheme` and this key's type.
    private func signAlgorithm(for scheme: SignatureScheme) -> gnutls_sign_algorithm_t? {
        let keyType = gnutls_pubkey_get_pk_algorithm(handle, nil)
        switch scheme {
        case .rsaPKCS1(let hash):
            guard keyType == Int32(GNUTLS_PK_RSA.rawValue) else { return nil }
            switch hash {
            case .sha1: return GNUTLS_SIGN_RSA_SHA1
            case .sha224: return GNUTLS_SIGN_RSA_SHA224
            case .sha256: return GNUTLS_SIGN_RSA_SHA256
            case .sha384: return GNUTLS_SIGN_RSA_SHA384
            case .sha512: return GNUTLS_SIGN_RSA_SHA512
            case .md2, .md4, .md5: return nil
            }
        case .rsaPSS(let hash, _):
            let pssKey = keyType == Int32(GNUTLS_PK_RSA_PSS.rawValue)
            guard pssKey || keyType == Int32(GNUTLS_PK_RSA.rawValue) else { return nil }
            switch hash {
            case .sha256: return pssKey ? GNUTLS_SIGN_RSA_PSS_SHA256 : GNUTLS_SIGN_RSA_PSS_RSAE_SHA256
            case .sha384: return pssKey ? GNUTLS_SIGN_RSA_PSS_SHA384 : GNUTLS_SIGN_RSA_PSS_RSAE_SHA384
            case .sha512: return pssKey ? GNUTLS_SIGN_RSA_PSS_SHA512 : GNUTLS_SIGN_RSA_PSS_RSAE_SHA512
            default: return nil
            }
        case .ecdsa(let hash):
            guard keyType == Int32(GNUTLS_PK_ECDSA.rawValue) else { return nil }
            switch hash {
            case .sha1: return GNUTLS_SIGN_ECDSA_SHA1
            case .sha224: return GNUTLS_SIGN_ECDSA_SHA224
            case .sha256: return GNUTLS_SIGN_ECDSA_SHA256
            case .sha384: return GNUTLS_SIGN_ECDSA_SHA384
            case .sha512: return GNUTLS_SIGN_ECDSA_SHA512
            case .md2, .md4, .md5: return nil
            }
        case .ed25519:
            return keyType == Int32(GNUTLS_PK_EDDSA_ED25519.rawValue) ? GNUTLS_SIGN_EDDSA_ED25519 : nil
        case .ed448:
            return keyType == Int32(GNUTLS_PK_EDDSA_ED448.rawValue) ? GNUTLS_SIGN_EDDSA_ED448 : nil
        }
    }
}
