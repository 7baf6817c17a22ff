import CertKit
internal import COpenSSL

/// Verifies one signature with libcrypto exactly as the core's scheme says (`EVP_DigestVerify`): the digest, the
/// RSA padding (PKCS#1 v1.5, or PSS with MGF1 over the same digest and the given salt length) or pure EdDSA.
/// Valid only when OpenSSL returns 1.
enum OpenSSLSignatureVerifier {
    static func verify(
        _ input: SignatureInput, keys: CertificateHandleCache<OpenSSLPublicKey>
    ) throws(BackendError) -> SignatureVerdict {
        OpenSSLErrorQueue.clear()
        let key: OpenSSLPublicKey
        do {
            key = try keys.handle(for: input.signerKey.derEncoded) { _ throws(BackendError) in
                try OpenSSLPublicKey.make(for: input.signerKey)
            }
        } catch {
            return .invalid("the signer's public key: \(error.message)")
        }
        let digest: OpaquePointer?
        switch input.scheme {
        case .rsaPKCS1(let hash), .rsaPSS(let hash, _), .ecdsa(let hash):
            guard let md = messageDigest(hash) else { return .invalid("digest \(hash.rawValue) unavailable") }
            digest = md
        case .ed25519, .ed448:
            digest = nil
        }
        let context: OpenSSLDigestVerifyContext
        do {
            context = try OpenSSLDigestVerifyContext(key: key, digest: digest) { keyContext in
                switch input.scheme {
                case .rsaPKCS1:
                    return EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) > 0
                case .rsaPSS(_, let salt):
                    return EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) > 0
                        && EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, Int32(salt)) > 0
                        && EVP_PKEY_CTX_set_rsa_mgf1_md(keyContext, digest) > 0
                default:
                    return true
                }
            }
        } catch {
            return .invalid(error.message)
        }
        let valid = context.verify(signature: input.signature, of: input.signedBytes)
        OpenSSLErrorQueue.clear()
        return valid ? .valid : .invalid("EVP_DigestVerify: the signature does not verify (\(input.scheme))")
    }

    /// The `EVP_MD` for `hash`; nil for the broken digests certkit never verifies.
    static func messageDigest(_ hash: HashAlgorithm) -> OpaquePointer? {
        switch hash {
        case .sha1: EVP_sha1()
        case .sha224: EVP_sha224()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        case .md2, .md4, .md5: nil
        }
    }

    /// OpenSSL's reading of `certificate`'s signature digest (`X509_get_signature_info`).
    static func digest(of handle: OpenSSLCertificate) -> LibrarySignatureDigest {
        var mdnid: Int32 = 0
        var pknid: Int32 = 0
        guard X509_get_signature_info(handle.handle, &mdnid, &pknid, nil, nil) == 1 else {
            OpenSSLErrorQueue.clear()
            return .unknown
        }
        switch mdnid {
        case NID_md2: return .digest(.md2)
        case NID_md4: return .digest(.md4)
        case NID_md5: return .digest(.md5)
        case NID_sha1: return .digest(.sha1)
        case NID_sha224: return .digest(.sha224)
        case NID_sha256: return .digest(.sha256)
        case NID_sha384: return .digest(.sha384)
        case NID_sha512: return .digest(.sha512)
        case NID_undef: return .none
        default: return .unknown
        }
    }
}
