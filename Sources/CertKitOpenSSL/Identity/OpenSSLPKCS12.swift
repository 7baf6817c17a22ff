import CertKit
internal import COpenSSL
internal import COpenSSLShims

/// Owns one `PKCS12` structure decoded from DER; frees it exactly once in `deinit`.
final class OpenSSLPKCS12 {
    /// The `PKCS12 *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    /// Decodes `der` (`d2i_PKCS12`, which must consume all of it).
    init(der: [UInt8]) throws(IdentityError) {
        do {
            handle = try OpenSSLDERDecoding.decode(
                der, function: "d2i_PKCS12", what: "the PKCS#12 structure", d2i: { d2i_PKCS12(nil, $0, $1) },
                free: PKCS12_free)
        } catch {
            throw .malformed(error.message)
        }
    }

    deinit { PKCS12_free(handle) }

    /// What `PKCS12_parse` found: the key (owned), the certificate matching it (owned), the other certificates.
    struct Contents {
        var key: OpenSSLPrivateKey?
        var certificate: [UInt8]?
        var others: [[UInt8]]
    }

    /// Checks the MAC with `password`, then decrypts and parses the contents (`PKCS12_parse`). The shrouded keys of
    /// encrypted contents are charged to `budget` once their content is decrypted, before `PKCS12_parse` derives a
    /// key for them (the caller checked, with the same budget, what the file shows without the password).
    /// - Throws: ``IdentityError/wrongPassword`` when the MAC does not verify, ``IdentityError/legacyEncryption(algorithm:)``
    ///   when a bag is encrypted with an algorithm OpenSSL 3 keeps in its legacy provider,
    ///   ``IdentityError/limitExceeded(_:)`` past a bound of the budget.
    func parse(password: SecretBytes, budget: inout PKCS12KeyDerivationBudget) throws(IdentityError) -> Contents {
        OpenSSLErrorQueue.clear()
        // PKCS12_parse's reading of an empty password: no password (NULL) when the MAC verifies so, else "".
        var noPassword = false
        if PKCS12_mac_present(handle) == 1 {
            noPassword = password.isEmpty && PKCS12_verify_mac(handle, nil, 0) == 1
            let verified = password.isEmpty
                ? noPassword || PKCS12_verify_mac(handle, "", 0) == 1
                : password.withCString { PKCS12_verify_mac(handle, $0, -1) } == 1
            guard verified else {
                let unsupported = Self.unsupportedAlgorithm()
                OpenSSLErrorQueue.clear()
                if let unsupported { throw .legacyEncryption(algorithm: unsupported) }
                throw .wrongPassword
            }
        }
        OpenSSLErrorQueue.clear()
        for algorithm in try encryptedKeyAlgorithms(password: password, noPassword: noPassword) {
            try budget.check(encryptionAlgorithm: algorithm)
        }
        OpenSSLErrorQueue.clear()
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var others: OpaquePointer?
        let parsed = password.withCString { PKCS12_parse(handle, $0, &key, &certificate, &others) }
        let contents = Contents(
            key: key.map { OpenSSLPrivateKey(taking: $0) }, certificate: certificate.map(Self.der),
            others: others.map { stack in
                (0..<certkit_sk_X509_num(stack)).compactMap { certkit_sk_X509_value(stack, $0).map(Self.der) }
            } ?? [])
        if let certificate { X509_free(certificate) }
        if let others { certkit_sk_X509_pop_free(others) }
        guard parsed == 1 else {
            if let unsupported = Self.unsupportedAlgorithm() {
                OpenSSLErrorQueue.clear()
                throw .legacyEncryption(algorithm: unsupported)
            }
            let message = OpenSSLErrorQueue.error("PKCS12_parse failed").message
            throw message.contains("mac verify failure") ? .wrongPassword : .malformed(message)
        }
        OpenSSLErrorQueue.clear()
        return contents
    }

    /// The DER AlgorithmIdentifiers of the shrouded keys inside the encrypted contents (nested SafeContents too),
    /// decrypted as `PKCS12_parse` decrypts them. A content that does not decrypt ends the list: `PKCS12_parse`
    /// stops at it the same way, having derived keys only for what came before (all of it listed here).
    private func encryptedKeyAlgorithms(password: SecretBytes, noPassword: Bool) throws(IdentityError) -> [[UInt8]] {
        guard let contents = PKCS12_unpack_authsafes(handle) else { return [] }
        defer { certkit_sk_PKCS7_pop_free(contents) }
        var found: [[UInt8]] = []
        for index in 0..<certkit_sk_PKCS7_num(contents) {
            guard let content = certkit_sk_PKCS7_value(contents, index), certkit_PKCS7_type_is_encrypted(content) == 1 else {
                continue
            }
            let bags = noPassword
                ? PKCS12_unpack_p7encdata(content, nil, 0)
                : password.withCString { PKCS12_unpack_p7encdata(content, $0, -1) }
            guard let bags else { break }
            defer { certkit_sk_PKCS12_SAFEBAG_pop_free(bags) }
            try Self.collectKeyAlgorithms(bags, depth: 0, into: &found)
        }
        return found
    }

    /// Appends the AlgorithmIdentifier of every shrouded key of `bags`, following nested SafeContents.
    private static func collectKeyAlgorithms(_ bags: OpaquePointer, depth: Int, into found: inout [[UInt8]])
        throws(IdentityError)
    {
        guard depth <= 4 else { throw .malformed("safeContentsBags nested deeper than 4 levels") }
        for index in 0..<certkit_sk_PKCS12_SAFEBAG_num(bags) {
            guard let bag = certkit_sk_PKCS12_SAFEBAG_value(bags, index) else { continue }
            switch PKCS12_SAFEBAG_get_nid(bag) {
            case NID_pkcs8ShroudedKeyBag:
                var algorithm: UnsafePointer<X509_ALGOR>?
                guard let shrouded = PKCS12_SAFEBAG_get0_pkcs8(bag) else { throw .malformed("an unreadable shrouded key") }
                X509_SIG_get0(shrouded, &algorithm, nil)
                guard let algorithm else { throw .malformed("a shrouded key without an algorithm") }
                let length = i2d_X509_ALGOR(algorithm, nil)
                guard length > 0 else { throw .malformed("a shrouded key's algorithm does not encode") }
                var der = [UInt8](repeating: 0, count: Int(length))
                let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    var cursor = buffer.baseAddress
                    return i2d_X509_ALGOR(algorithm, &cursor)
                }
                guard written == length else { throw .malformed("a shrouded key's algorithm does not encode") }
                found.append(der)
            case NID_safeContentsBag:
                if let inner = PKCS12_SAFEBAG_get0_safes(bag) {
                    try collectKeyAlgorithms(inner, depth: depth + 1, into: &found)
                }
            default:
                continue
            }
        }
    }

    /// The algorithm OpenSSL said it could not fetch (`ERR_R_UNSUPPORTED`, "Algorithm (RC2-40-CBC : 0)"), if the
    /// queue holds such an error; "" when the name is not given. Leaves the queue as it is.
    private static func unsupportedAlgorithm() -> String? {
        var found: String?
        ERR_set_mark()
        while true {
            var data: UnsafePointer<CChar>?
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasSuffix(":unsupported") || text.contains("unsupported algorithm") else { continue }
            let detail = data.map { String(cString: $0) } ?? ""
            if let start = detail.range(of: "Algorithm ("), let end = detail[start.upperBound...].firstIndex(of: " ") {
                found = String(detail[start.upperBound..<end])
            } else {
                found = found ?? ""
            }
        }
        ERR_pop_to_mark()
        return found
    }

    private static func der(_ certificate: OpaquePointer) -> [UInt8] { OpenSSLX509DER.encode(certificate) }
}

/// The DER encoding of an `X509` that OpenSSL holds (`i2d_X509`); empty when it cannot be encoded.
enum OpenSSLX509DER {
    static func encode(_ certificate: OpaquePointer) -> [UInt8] {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { return [] }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        return written == length ? der : []
    }
}
