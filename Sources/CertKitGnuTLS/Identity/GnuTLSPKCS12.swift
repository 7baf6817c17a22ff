import CertKit
internal import CGnuTLS
internal import CGnuTLSShims

/// Owns one `gnutls_pkcs12_t` imported from DER; deinitializes it exactly once in `deinit`.
final class GnuTLSPKCS12 {
    /// The handle; valid for the lifetime of this object.
    let handle: gnutls_pkcs12_t

    /// Imports `der` (`gnutls_pkcs12_import`).
    init(der: [UInt8]) throws(IdentityError) {
        do { try GnuTLSLibrary.ensureInitialized() } catch { throw .library(error.message) }
        var created: gnutls_pkcs12_t?
        let initCode = gnutls_pkcs12_init(&created)
        guard initCode >= 0, let created else { throw .library("gnutls_pkcs12_init: \(GnuTLSLibrary.errorString(initCode))") }
        let code = GnuTLSLibrary.withDatum(der) { gnutls_pkcs12_import(created, &$0, GNUTLS_X509_FMT_DER, 0) }
        if code < 0 {
            gnutls_pkcs12_deinit(created)
            throw .malformed("gnutls_pkcs12_import: \(GnuTLSLibrary.errorString(code))")
        }
        handle = created
    }

    deinit { gnutls_pkcs12_deinit(handle) }

    /// What the file holds: the key (owned), the certificate that matches it, the other certificates (DER).
    struct Contents {
        var key: GnuTLSPrivateKey?
        var certificate: [UInt8]?
        var others: [[UInt8]]
        /// Whether the file holds a key bag and a certificate bag (set when GnuTLS paired none).
        var hasKey = false
        var hasCertificate = false
    }

    /// Checks the MAC with `password` (`gnutls_pkcs12_verify_mac`), then reads the key and its chain
    /// (`gnutls_pkcs12_simple_parse`, which pairs them by key id). The shrouded keys of encrypted contents are
    /// charged to `budget` once their content is decrypted, before GnuTLS derives a key for them (the caller
    /// checked, with the same budget, what the file shows without the password).
    func parse(password: SecretBytes, budget: inout PKCS12KeyDerivationBudget) throws(IdentityError) -> Contents {
        let mac = password.withCString { gnutls_pkcs12_verify_mac(handle, $0) }
        if mac == GNUTLS_E_MAC_VERIFY_FAILED { throw .wrongPassword }
        if mac < 0 { throw .malformed("gnutls_pkcs12_verify_mac: \(GnuTLSLibrary.errorString(mac))") }
        try checkEncryptedKeys(password: password, budget: &budget)

        var key: gnutls_x509_privkey_t?
        var chain: UnsafeMutablePointer<gnutls_x509_crt_t?>?
        var chainLength: UInt32 = 0
        var extra: UnsafeMutablePointer<gnutls_x509_crt_t?>?
        var extraLength: UInt32 = 0
        let code = password.withCString { password in
            gnutls_pkcs12_simple_parse(
                handle, password, &key, &chain, &chainLength, &extra, &extraLength, nil,
                UInt32(GNUTLS_PKCS12_SP_INCLUDE_SELF_SIGNED))
        }
        let owned = key.map { GnuTLSPrivateKey(taking: $0) }
        let chainDER = Self.take(chain, chainLength)
        let extraDER = Self.take(extra, extraLength)
        guard code >= 0 else {
            switch code {
            case GNUTLS_E_DECRYPTION_FAILED, GNUTLS_E_MAC_VERIFY_FAILED: throw .wrongPassword
            case GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE:
                // No key, or no certificate for the key: say which from the bags the file holds.
                let bags = bags(password: password)
                return Contents(
                    key: owned, certificate: nil, others: bags.certificates, hasKey: bags.key,
                    hasCertificate: !bags.certificates.isEmpty)
            default: throw .malformed("gnutls_pkcs12_simple_parse: \(GnuTLSLibrary.errorString(code))")
            }
        }
        return Contents(key: owned, certificate: chainDER.first, others: Array(chainDER.dropFirst()) + extraDER)
    }

    /// Charges to `budget` the encryption of every shrouded key inside an encrypted content, decrypting the contents
    /// as `gnutls_pkcs12_simple_parse` does. A content that does not decrypt is left to it (it fails there the same
    /// way, before deriving a key for what it holds).
    private func checkEncryptedKeys(password: SecretBytes, budget: inout PKCS12KeyDerivationBudget) throws(IdentityError) {
        // Every content, however many (the core walked them all; `gnutls_pkcs12_simple_parse` has no cap either).
        for index in 0..<Int32.max {
            var bag: gnutls_pkcs12_bag_t?
            guard gnutls_pkcs12_bag_init(&bag) >= 0, let bag else { break }
            defer { gnutls_pkcs12_bag_deinit(bag) }
            guard gnutls_pkcs12_get_bag(handle, index, bag) >= 0 else { break }
            guard gnutls_pkcs12_bag_get_type(bag, 0) == GNUTLS_BAG_ENCRYPTED.rawValue else { continue }
            guard password.withCString({ gnutls_pkcs12_bag_decrypt(bag, $0) }) >= 0 else { return }
            for element in 0..<max(0, gnutls_pkcs12_bag_get_count(bag)) {
                let type = gnutls_pkcs12_bag_type_t(UInt32(bitPattern: gnutls_pkcs12_bag_get_type(bag, UInt32(element))))
                guard type == GNUTLS_BAG_PKCS8_ENCRYPTED_KEY else { continue }
                // The datum stays owned by the bag; the encrypted key's bytes are copied.
                var datum = gnutls_datum_t()
                guard gnutls_pkcs12_bag_get_data(bag, UInt32(element), &datum) >= 0, let data = datum.data else {
                    throw .malformed("an unreadable shrouded key")
                }
                try budget.check(encryptedPrivateKeyInfo: Array(UnsafeBufferPointer(start: data, count: Int(datum.size))))
            }
        }
    }

    /// Whether the file holds a (possibly encrypted) key bag, and the DER of every certificate bag, in the file's
    /// order, decrypting encrypted bags with `password`.
    private func bags(password: SecretBytes) -> (key: Bool, certificates: [[UInt8]]) {
        var kinds = (key: false, certificates: [[UInt8]]())
        for index in 0..<Int32(1024) {
            var bag: gnutls_pkcs12_bag_t?
            guard gnutls_pkcs12_bag_init(&bag) >= 0, let bag else { break }
            defer { gnutls_pkcs12_bag_deinit(bag) }
            guard gnutls_pkcs12_get_bag(handle, index, bag) >= 0 else { break }
            if gnutls_pkcs12_bag_get_type(bag, 0) == GNUTLS_BAG_ENCRYPTED.rawValue {
                guard password.withCString({ gnutls_pkcs12_bag_decrypt(bag, $0) }) >= 0 else { continue }
            }
            for element in 0..<max(0, gnutls_pkcs12_bag_get_count(bag)) {
                switch gnutls_pkcs12_bag_type_t(UInt32(bitPattern: gnutls_pkcs12_bag_get_type(bag, UInt32(element)))) {
                case GNUTLS_BAG_PKCS8_KEY, GNUTLS_BAG_PKCS8_ENCRYPTED_KEY: kinds.key = true
                case GNUTLS_BAG_CERTIFICATE:
                    // The datum stays owned by the bag; only the bytes are copied.
                    var datum = gnutls_datum_t()
                    if gnutls_pkcs12_bag_get_data(bag, UInt32(element), &datum) >= 0, let data = datum.data {
                        kinds.certificates.append(Array(UnsafeBufferPointer(start: data, count: Int(datum.size))))
                    }
                default: break
                }
            }
        }
        return kinds
    }

    /// Exports and deinitializes every certificate of a list GnuTLS allocated, then frees the list.
    private static func take(_ list: UnsafeMutablePointer<gnutls_x509_crt_t?>?, _ count: UInt32) -> [[UInt8]] {
        guard let list else { return [] }
        defer { certkit_gnutls_free(list) }
        return (0..<Int(count)).compactMap { index -> [UInt8]? in
            guard let certificate = list[index] else { return nil }
            defer { gnutls_x509_crt_deinit(certificate) }
            var datum = gnutls_datum_t()
            guard gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_DER, &datum) >= 0 else { return nil }
            return GnuTLSLibrary.takeDatum(datum)
        }
    }
}
