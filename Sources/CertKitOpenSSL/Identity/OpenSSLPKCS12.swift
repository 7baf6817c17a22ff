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

    /// Checks the MAC with `password`, then decrypts and parses the contents (`PKCS12_parse`).
    /// - Throws: ``IdentityError/wrongPassword`` when the MAC does not verify, ``IdentityError/legacyEncryption(algorithm:)``
    ///   when a bag is encrypted with an algorithm OpenSSL 3 keeps in its legacy provider.
    func parse(password: SecretBytes) throws(IdentityError) -> Contents {
        OpenSSLErrorQueue.clear()
        if PKCS12_mac_present(handle) == 1 {
            let verified = password.isEmpty
                ? PKCS12_verify_mac(handle, nil, 0) == 1 || PKCS12_verify_mac(handle, "", 0) == 1
                : password.withCString { PKCS12_verify_mac(handle, $0, -1) } == 1
            guard verified else {
                let unsupported = Self.unsupportedAlgorithm()
                OpenSSLErrorQueue.clear()
                if let unsupported { throw .legacyEncryption(algorithm: unsupported) }
                throw .wrongPassword
            }
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
