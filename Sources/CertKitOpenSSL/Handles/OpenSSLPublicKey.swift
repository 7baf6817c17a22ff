import CertKit
internal import COpenSSL

/// Owns one `EVP_PKEY` built from a SubjectPublicKeyInfo; frees it exactly once in `deinit`.
///
/// `@unchecked Sendable` is safe: `handle` is set once in `init` and freed only in `deinit`, after the last user
/// (the backend's key cache shares one key across threads). The key is only used as the read-only input of a
/// fresh `EVP_MD_CTX` per verification template (`EVP_DigestVerifyInit`, see ``OpenSSLVerifyTemplate``), which
/// OpenSSL 3 supports from several threads at once; nothing modifies the key after it is built.
final class OpenSSLPublicKey: @unchecked Sendable {
    /// The `EVP_PKEY *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    /// Decodes `spki` with `d2i_PUBKEY`, which must consume all of it.
    init(spki: [UInt8]) throws(BackendError) {
        handle = try OpenSSLDERDecoding.decode(
            spki, function: "d2i_PUBKEY", what: "the key", d2i: { d2i_PUBKEY(nil, $0, $1) }, free: EVP_PKEY_free)
    }

    private init(handle: OpaquePointer) { self.handle = handle }

    deinit { EVP_PKEY_free(handle) }

    /// The key of `key` (a SubjectPublicKeyInfo the core decoded). OpenSSL 3.0's `d2i_PUBKEY` runs the decoder
    /// framework (costlier than an RSA verification, under a global lock), so the two kinds of key the
    /// web uses are built directly from the subjectPublicKey the core already split out: an rsaEncryption key
    /// with `d2i_PublicKey(EVP_PKEY_RSA)` (the RSAPublicKey, all of it consumed), a P-256/P-384/P-521 key as a
    /// copy of the curve's group template given the point, which OpenSSL checks is on the curve. Any other key, and
    /// any key whose encoding the core found a problem with, goes through `d2i_PUBKEY`.
    ///
    /// An elliptic-curve key (whichever way it was built) must carry its point uncompressed (`04 ‖ X ‖ Y`):
    /// OpenSSL also reads compressed and hybrid points and the single byte `00`, the point at infinity, for which
    /// a signature made without any private key verifies; GnuTLS refuses all of them, and so does this backend.
    static func make(for key: PublicKeyInfo) throws(BackendError) -> OpenSSLPublicKey {
        let bits = SubjectPublicKeyBits.content(of: key.derEncoded)
        if key.encodingProblem == nil, !key.isRSASSAPSSKey, let bits {
            switch key.algorithm {
            case .rsa:
                return OpenSSLPublicKey(handle: try OpenSSLDERDecoding.decode(
                    Array(bits), function: "d2i_PublicKey", what: "the RSA key",
                    d2i: { d2i_PublicKey(EVP_PKEY_RSA, nil, $0, $1) }, free: EVP_PKEY_free))
            case .ec(let curve, _) where groupTemplates.keys.contains(curve):
                try requireUncompressedPoint(bits)
                return OpenSSLPublicKey(handle: try ecKey(group: curve, point: Array(bits)))
            default:
                break
            }
        }
        let decoded = try OpenSSLPublicKey(spki: key.derEncoded)
        // The point's form only: a nonzero unused-bits count (which the core refuses on its own) is read past, as
        // GnuTLS reads it.
        if decoded.isEllipticCurve {
            try requireUncompressedPoint(SubjectPublicKeyBits.content(of: key.derEncoded, anyUnusedBits: true))
        }
        return decoded
    }

    /// True for a key of the elliptic-curve family (EC, and SM2, which OpenSSL also reads from ecPublicKey).
    private var isEllipticCurve: Bool { EVP_PKEY_is_a(handle, "EC") == 1 || EVP_PKEY_is_a(handle, "SM2") == 1 }

    /// Throws unless `bits` (a subjectPublicKey) is an uncompressed point: `04`, then X and Y of equal length.
    static func requireUncompressedPoint(_ bits: ArraySlice<UInt8>?) throws(BackendError) {
        guard let bits, bits.count >= 3, bits.count % 2 == 1, bits.first == 0x04 else {
            throw BackendError(
                .refusedInput, "the EC point is not uncompressed (04, X, Y): compressed, hybrid and infinity encodings are refused")
        }
    }

    /// An EC public key on the named `group` at `point`: a copy of the group's template (``groupTemplates``) given
    /// the point with `EVP_PKEY_set1_encoded_public_key`, or, without a template, built with `EVP_PKEY_fromdata`.
    /// Both read the point with `EC_POINT_oct2point`, which refuses a point that is not on the curve.
    private static func ecKey(group: String, point: [UInt8]) throws(BackendError) -> OpaquePointer {
        guard let template = groupTemplates[group] ?? nil else { return try fromData(group: group, point: point) }
        guard let key = EVP_PKEY_dup(template.handle) else { throw OpenSSLErrorQueue.error("EVP_PKEY_dup failed") }
        guard point.withUnsafeBufferPointer({ EVP_PKEY_set1_encoded_public_key(key, $0.baseAddress, $0.count) }) == 1
        else {
            EVP_PKEY_free(key)
            throw OpenSSLErrorQueue.error("EVP_PKEY_set1_encoded_public_key: the \(group) point is not a public key", code: .refusedInput)
        }
        return key
    }

    /// For each named curve, a key holding only the curve's group (domain parameters, no point), made once.
    ///
    /// Why: `EVP_PKEY_fromdata` builds the group from its name for every key (`EC_GROUP_new_by_curve_name_ex`:
    /// the field and order Montgomery contexts and the generator, most of the cost of making a P-256 key in a
    /// callgrind profile); `EVP_PKEY_dup` of a template copies the group instead. nil for a curve whose template could
    /// not be made (its keys are then built with `EVP_PKEY_fromdata`).
    static let groupTemplates: [String: OpenSSLPublicKey?] = Dictionary(
        uniqueKeysWithValues: ["prime256v1", "secp384r1", "secp521r1"].map { group in
            (group, (try? fromData(group: group, point: nil)).map(OpenSSLPublicKey.init(handle:)))
        })

    /// An EC key on the named `group` built with `EVP_PKEY_fromdata`: at `point`, or, for nil, the group alone.
    private static func fromData(group: String, point: [UInt8]?) throws(BackendError) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw OpenSSLErrorQueue.error("EVP_PKEY_CTX_new_from_name(EC) failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        let built = "group".withCString { groupKey in  // OSSL_PKEY_PARAM_GROUP_NAME
            group.withCString { groupName in
                "pub".withCString { pointKey in  // OSSL_PKEY_PARAM_PUB_KEY
                    (point ?? []).withUnsafeBufferPointer { bytes in
                        var parameters = [
                            OSSL_PARAM_construct_utf8_string(groupKey, UnsafeMutablePointer(mutating: groupName), 0),
                            point == nil
                                ? OSSL_PARAM_construct_end()
                                : OSSL_PARAM_construct_octet_string(
                                    pointKey, UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count),
                            OSSL_PARAM_construct_end(),
                        ]
                        return EVP_PKEY_fromdata_init(context) == 1
                            && EVP_PKEY_fromdata(
                                context, &key, point == nil ? domainSelection : publicKeySelection, &parameters) == 1
                    }
                }
            }
        }
        guard built, let key else {
            if let key { EVP_PKEY_free(key) }
            throw OpenSSLErrorQueue.error("EVP_PKEY_fromdata: the \(group) point is not a public key", code: .refusedInput)
        }
        return key
    }

    /// `EVP_PKEY_KEY_PARAMETERS`: the domain parameters alone (a macro Swift does not import).
    private static let domainSelection = Int32(
        OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS)

    /// `EVP_PKEY_PUBLIC_KEY`: the public key and every parameter (a macro Swift does not import).
    private static let publicKeySelection = Int32(
        OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS | OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
}

/// The subjectPublicKey of a DER SubjectPublicKeyInfo: `SEQUENCE { SEQUENCE algorithm, BIT STRING }`, exactly.
enum SubjectPublicKeyBits {
    /// The BIT STRING's bytes after its unused-bits byte (which must be 0 unless `anyUnusedBits`); nil unless `spki`
    /// is exactly that shape.
    static func content(of spki: [UInt8], anyUnusedBits: Bool = false) -> ArraySlice<UInt8>? {
        guard let outer = header(spki, at: 0, tag: 0x30), outer.end == spki.count,
              let algorithm = header(spki, at: outer.start, tag: 0x30),
              let key = header(spki, at: algorithm.end, tag: 0x03), key.end == outer.end,
              key.start < key.end, anyUnusedBits || spki[key.start] == 0 else { return nil }
        return spki[(key.start + 1)..<key.end]
    }

    /// The content range of the TLV with `tag` at `offset` (definite, minimal lengths), or nil.
    private static func header(_ bytes: [UInt8], at offset: Int, tag: UInt8) -> (start: Int, end: Int)? {
        guard offset + 2 <= bytes.count, bytes[offset] == tag else { return nil }
        let first = Int(bytes[offset + 1])
        var start = offset + 2
        var length = first
        if first >= 0x80 {
            let count = first & 0x7F
            guard (1...3).contains(count), start + count <= bytes.count, bytes[start] != 0 else { return nil }
            length = 0
            for byte in bytes[start..<(start + count)] { length = length << 8 | Int(byte) }
            guard length >= 0x80 else { return nil }
            start += count
        }
        guard start + length <= bytes.count else { return nil }
        return (start, start + length)
    }
}
