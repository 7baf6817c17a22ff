import CertKit
internal import COpenSSL

/// Verifies one signature with libcrypto exactly as the core's scheme says (`EVP_DigestVerify`): the digest, the
/// RSA padding (PKCS#1 v1.5, or PSS with MGF1 over the same digest and the given salt length) or pure EdDSA.
/// Valid only when OpenSSL returns 1.
enum OpenSSLSignatureVerifier {
    /// Verifies `input` with a copy of the cached template for its signer key and scheme (built, with the key from
    /// `keys`, on a miss). A key or template that cannot be built makes the signature invalid.
    static func verify(
        _ input: SignatureInput, keys: CertificateHandleCache<OpenSSLPublicKey>,
        templates: CertificateHandleCache<OpenSSLVerifyTemplate>
    ) throws(BackendError) -> SignatureVerdict {
        OpenSSLErrorQueue.clear()
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
            let template = try templates.handle(for: templateKey(input)) { _ throws(BackendError) in
                try makeTemplate(input, digest: digest, keys: keys)
            }
            context = try OpenSSLDigestVerifyContext(copying: template)
        } catch {
            return .invalid(error.message)
        }
        let valid = context.verify(signature: input.signature, of: input.signedBytes)
        OpenSSLErrorQueue.clear()
        return valid ? .valid : .invalid("EVP_DigestVerify: the signature does not verify (\(input.scheme))")
    }

    /// A template for `input`'s signer key (from `keys`) and scheme: `digest`, and for RSA the padding (PSS: salt
    /// length and MGF1 over the same digest).
    private static func makeTemplate(
        _ input: SignatureInput, digest: OpaquePointer?, keys: CertificateHandleCache<OpenSSLPublicKey>
    ) throws(BackendError) -> OpenSSLVerifyTemplate {
        let key: OpenSSLPublicKey
        do {
            key = try keys.handle(for: input.signerKey.derEncoded) { _ throws(BackendError) in
                try OpenSSLPublicKey.make(for: input.signerKey)
            }
        } catch {
            throw BackendError(.refusedInput, "the signer's public key: \(error.message)")
        }
        return try OpenSSLVerifyTemplate(key: key, digest: digest) { keyContext in
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
    }

    /// The template cache key of `input`: the signer's SubjectPublicKeyInfo DER followed by a fixed-length (10-byte)
    /// encoding of the scheme (kind, digest, salt length), so distinct (key, scheme) pairs never share a key.
    static func templateKey(_ input: SignatureInput) -> [UInt8] {
        let kind: UInt8
        var hash: HashAlgorithm?
        var salt = 0
        switch input.scheme {
        case .rsaPKCS1(let digest): (kind, hash) = (1, digest)
        case .rsaPSS(let digest, let saltLength): (kind, hash, salt) = (2, digest, saltLength)
        case .ecdsa(let digest): (kind, hash) = (3, digest)
        case .ed25519: kind = 4
        case .ed448: kind = 5
        }
        let hashIndex = hash.flatMap { HashAlgorithm.allCases.firstIndex(of: $0) }.map { UInt8($0 + 1) } ?? 0
        var key = input.signerKey.derEncoded
        key.reserveCapacity(key.count + 10)
        key.append(kind)
        key.append(hashIndex)
        withUnsafeBytes(of: UInt64(bitPattern: Int64(salt)).bigEndian) { key.append(contentsOf: $0) }
        return key
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
