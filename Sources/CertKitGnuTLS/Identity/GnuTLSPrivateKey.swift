import CertKit
internal import CGnuTLS
internal import CGnuTLSShims

/// Owns one `gnutls_x509_privkey_t` (from a PKCS#12 file or a key file); deinitializes it exactly once in
/// `deinit`. Never prints or logs the key.
///
/// `@unchecked Sendable` is safe: `handle` is set once in `init` and freed only in `deinit`; after import it is
/// only read (its key id, its PKCS#8 export, `gnutls_certificate_set_x509_key`, which copies it).
final class GnuTLSPrivateKey: PrivateKeyStorage, @unchecked Sendable {
    /// The handle; valid for the lifetime of this object.
    let handle: gnutls_x509_privkey_t

    let backendName = "gnutls"

    /// Takes ownership of `handle`.
    init(taking handle: gnutls_x509_privkey_t) { self.handle = handle }

    deinit { gnutls_x509_privkey_deinit(handle) }

    /// Reads a key in PEM (PKCS#8, encrypted PKCS#8, PKCS#1, SEC 1) or DER (`gnutls_x509_privkey_import2`), with
    /// `password` for an encrypted one, in place (the datum points into `bytes`: no Swift copy). GnuTLS never
    /// prompts.
    init(encoded bytes: SecretBytes, password: SecretBytes?) throws(IdentityError) {
        do { try GnuTLSLibrary.ensureInitialized() } catch { throw .library(error.message) }
        var created: gnutls_x509_privkey_t?
        let initCode = gnutls_x509_privkey_init(&created)
        guard initCode >= 0, let created else { throw .library("gnutls_x509_privkey_init: \(GnuTLSLibrary.errorString(initCode))") }
        let format = bytes.contains("-----BEGIN") ? GNUTLS_X509_FMT_PEM : GNUTLS_X509_FMT_DER
        let code = bytes.withUnsafeBytes { raw in
            // GnuTLS only reads through the datum.
            var datum = gnutls_datum_t(
                data: UnsafeMutablePointer(mutating: raw.baseAddress?.assumingMemoryBound(to: UInt8.self)),
                size: UInt32(raw.count))
            guard let password else {
                return gnutls_x509_privkey_import2(created, &datum, format, nil, UInt32(GNUTLS_PKCS_PLAIN.rawValue))
            }
            return password.withCString { gnutls_x509_privkey_import2(created, &datum, format, $0, 0) }
        }
        if code < 0 {
            gnutls_x509_privkey_deinit(created)
            throw Self.importFailure(code)
        }
        handle = created
    }

    /// An import error code as an identity error.
    static func importFailure(_ code: Int32) -> IdentityError {
        switch code {
        case GNUTLS_E_DECRYPTION_FAILED, GNUTLS_E_MAC_VERIFY_FAILED: .wrongPassword
        case GNUTLS_E_UNKNOWN_CIPHER_TYPE, GNUTLS_E_UNKNOWN_PKCS_CONTENT_TYPE:
            .malformed("unsupported encryption: \(GnuTLSLibrary.errorString(code))")
        default:
            .malformed(GnuTLSLibrary.errorString(code))
        }
    }

    /// True when the key is the private half of `certificate`'s public key (equal key ids: SHA-1 of the public
    /// key, computed by GnuTLS for both).
    func matches(_ certificate: GnuTLSCertificate) -> Bool {
        guard let mine = Self.keyID({ gnutls_x509_privkey_get_key_id(handle, 0, $0, $1) }),
              let theirs = Self.keyID({ gnutls_x509_crt_get_key_id(certificate.handle, 0, $0, $1) })
        else { return false }
        return mine == theirs
    }

    private static func keyID(_ read: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<Int>) -> Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64)
        var size = buffer.count
        let code = buffer.withUnsafeMutableBufferPointer { read($0.baseAddress!, &size) }
        return code < 0 ? nil : Array(buffer.prefix(size))
    }

    /// The key as an unencrypted PKCS#8 PrivateKeyInfo (`gnutls_x509_privkey_export2_pkcs8`, plain), copied into
    /// zeroed-on-release memory; GnuTLS's own buffer is cleared (`gnutls_memset`) before `gnutls_free`.
    func pkcs8DER() throws(IdentityError) -> SecretBytes {
        var datum = gnutls_datum_t()
        let code = gnutls_x509_privkey_export2_pkcs8(handle, GNUTLS_X509_FMT_DER, nil, UInt32(GNUTLS_PKCS_PLAIN.rawValue), &datum)
        guard code >= 0 else {
            throw .library("gnutls_x509_privkey_export2_pkcs8: \(GnuTLSLibrary.errorString(code))")
        }
        defer {
            if let data = datum.data { gnutls_memset(data, 0, Int(datum.size)) }
            certkit_gnutls_free(datum.data)
        }
        return SecretBytes(copying: UnsafeBufferPointer(start: datum.data, count: datum.data == nil ? 0 : Int(datum.size)))
    }
}
