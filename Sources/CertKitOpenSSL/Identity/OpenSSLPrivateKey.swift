import CertKit
internal import COpenSSL

/// Owns one private `EVP_PKEY` (from a PKCS#12 file or a key file); frees it exactly once in `deinit`. Never
/// prints or logs the key.
///
/// `@unchecked Sendable` is safe: `handle` is set once in `init` and freed only in `deinit`; nothing modifies the
/// key after import. A TLS context that uses it takes its own reference (`SSL_CTX_use_PrivateKey` up-refs), and
/// OpenSSL 3 reads a key from several threads at once.
final class OpenSSLPrivateKey: PrivateKeyStorage, @unchecked Sendable {
    /// The `EVP_PKEY *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    let backendName = "openssl"

    /// Takes ownership of `handle` (one reference).
    init(taking handle: OpaquePointer) { self.handle = handle }

    deinit { EVP_PKEY_free(handle) }

    /// Reads a key in PEM (PKCS#8, encrypted PKCS#8, PKCS#1, SEC 1) or, failing that, DER (PKCS#8 or a
    /// traditional form), in place: OpenSSL reads `bytes` through a read-only memory BIO or `d2i`, no Swift copy is
    /// made. `password` decrypts an encrypted PEM key; OpenSSL never prompts for one.
    init(encoded bytes: SecretBytes, password: SecretBytes?) throws(IdentityError) {
        OpenSSLErrorQueue.clear()
        if bytes.contains("-----BEGIN") {
            let key: OpaquePointer? = bytes.withUnsafeBytes { raw -> OpaquePointer? in
                guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
                defer { BIO_free(bio) }
                return Self.withOptionalCString(password) { passphrase in
                    PEM_read_bio_PrivateKey(bio, nil, { buffer, size, _, userData in
                        // Never prompts: no password given is a failure, not a terminal read.
                        guard let buffer, let userData else { return -1 }
                        let text = userData.assumingMemoryBound(to: CChar.self)
                        let length = Int32(strlen(text))
                        guard length < size else { return -1 }
                        memcpy(buffer, text, Int(length))
                        return length
                    }, UnsafeMutableRawPointer(mutating: passphrase))
                }
            }
            guard let key else { throw Self.pemFailure() }
            handle = key
            OpenSSLErrorQueue.clear()
            return
        }
        let key: OpaquePointer? = bytes.withUnsafeBytes { raw in
            var cursor = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return d2i_AutoPrivateKey(nil, &cursor, raw.count)
        }
        guard let key else {
            throw .malformed(OpenSSLErrorQueue.error("not a PEM or DER private key").message)
        }
        OpenSSLErrorQueue.clear()
        handle = key
    }

    /// Calls `body` with `password` as a C string, or nil.
    private static func withOptionalCString<R>(_ password: SecretBytes?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let password else { return body(nil) }
        return password.withCString { body($0) }
    }

    /// True when the key is the private half of `certificate`'s public key (`X509_check_private_key`).
    func matches(_ certificate: OpenSSLCertificate) -> Bool {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        return X509_check_private_key(certificate.handle, handle) == 1
    }

    /// The key as an unencrypted PKCS#8 PrivateKeyInfo (`EVP_PKEY2PKCS8`, `i2d_PKCS8_PRIV_KEY_INFO`), encoded
    /// straight into zeroed-on-release memory; OpenSSL clears its intermediate structure
    /// (`PKCS8_PRIV_KEY_INFO_free` frees the key octets with `OPENSSL_clear_free`).
    func pkcs8DER() throws(IdentityError) -> SecretBytes {
        OpenSSLErrorQueue.clear()
        guard let info = EVP_PKEY2PKCS8(handle) else {
            throw .library(OpenSSLErrorQueue.error("EVP_PKEY2PKCS8 failed").message)
        }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        let length = i2d_PKCS8_PRIV_KEY_INFO(info, nil)
        guard length > 0 else { throw .library(OpenSSLErrorQueue.error("i2d_PKCS8_PRIV_KEY_INFO failed").message) }
        return try SecretBytes(count: Int(length)) { buffer throws(IdentityError) in
            var cursor = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
            guard i2d_PKCS8_PRIV_KEY_INFO(info, &cursor) == length else {
                throw .library(OpenSSLErrorQueue.error("i2d_PKCS8_PRIV_KEY_INFO failed").message)
            }
        }
    }

    private static func pemFailure() -> IdentityError {
        let message = OpenSSLErrorQueue.error("PEM_read_bio_PrivateKey failed").message
        // "bad decrypt" (provider or EVP), "bad password read" and "problems getting password" (none given).
        if ["bad decrypt", "bad password read", "problems getting password"].contains(where: message.contains) {
            return .wrongPassword
        }
        return .malformed(message)
    }
}
