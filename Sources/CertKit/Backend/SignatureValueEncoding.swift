/// The encoding of a signature value, checked by the core before any library sees it (fail closed): a value the
/// two libraries would read differently, or that has another encoding of the same value, is a `Signature`
/// failure.
///
/// - **ECDSA** (RFC 5480 §2.2.3, RFC 3279 §2.2.3): exactly one DER `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER,
///   s INTEGER }` — minimal lengths, minimal INTEGERs, nothing after it — with `0 < r, s < n`, the order of the
///   signer's curve. GnuTLS verified signatures with a long-form length or a zero-padded INTEGER that OpenSSL
///   refuses, and each such copy of a certificate has another SHA-256. The orders are those of the named curves
///   the core knows (``curveOrders``); a signature by a key on any other curve is refused.
/// - **RSA** (RFC 8017 §8.2.2, §8.1.2): the signature is exactly as long as the modulus (both libraries refuse
///   another length today; the core does not leave it to them).
/// - **EdDSA** (RFC 8032): 64 bytes for Ed25519, 114 for Ed448, `R` a canonical point of more than small order
///   (``EdwardsPointEncoding``), and S below the group order L (§5.1.7, §5.2.7):
///   GnuTLS verified an Ed448 signature whose S had L added to it (a flipped bit in the last octet) that OpenSSL
///   refuses — a second signature value, and a CRL that one backend applied and the other did not.
///
/// Whatever passes here can still fail in the library; nothing passes here that is not one canonical encoding.
/// A certificate re-encoded this way without the key is also caught by what negative trust settings bind to
/// (``CertificateIdentity``).
enum SignatureValueEncoding {
    /// Why `signature` is not a canonical signature value for `scheme` with `key`, or nil when it is.
    static func problem(_ signature: [UInt8], scheme: SignatureScheme, key: PublicKeyInfo) -> String? {
        switch (scheme, key.algorithm) {
        case (.rsaPKCS1, .rsa(let bits)), (.rsaPSS, .rsa(let bits)):
            let length = (bits + 7) / 8
            return signature.count == length
                ? nil : "the RSA signature is \(signature.count) bytes long, the modulus \(length) (RFC 8017 §8.2.2)"
        case (.ecdsa, .ec(let curve, _)):
            guard let order = curveOrders[curve] else {
                return "no group order is known for the signer's curve \(MessageText.line(curve)): its ECDSA signature is not checked"
            }
            return ecdsaProblem(signature, order: order)
        case (.ed25519, .ed25519):
            guard signature.count == 64 else {
                return "the Ed25519 signature is \(signature.count) bytes long, not 64 (RFC 8032 §5.1.6)"
            }
            if let problem = EdwardsPointEncoding.problem(signature[..<32], ed448: false) { return "the Ed25519 signature's R: \(problem)" }
            return isBelow(littleEndian: signature[32...], bigEndianLimit: ed25519Order)
                ? nil : "the Ed25519 signature's S is not below the group order (RFC 8032 §5.1.7)"
        case (.ed448, .ed448):
            guard signature.count == 114 else {
                return "the Ed448 signature is \(signature.count) bytes long, not 114 (RFC 8032 §5.2.6)"
            }
            if let problem = EdwardsPointEncoding.problem(signature[..<57], ed448: true) { return "the Ed448 signature's R: \(problem)" }
            return isBelow(littleEndian: signature[57...], bigEndianLimit: ed448Order)
                ? nil : "the Ed448 signature's S is not below the group order (RFC 8032 §5.2.7)"
        default:
            return nil  // a key that does not fit the scheme is refused by the caller
        }
    }

    /// Why `signature` is not one DER ECDSA-Sig-Value with `0 < r, s < order`, or nil.
    static func ecdsaProblem(_ signature: [UInt8], order: [UInt8]) -> String? {
        do {
            return try DERReader.read(signature) { (reader) throws(CertificateDecodingError) -> String? in
                var fields = try reader.read(DERTag.sequence, "ECDSA-Sig-Value").children()
                try reader.expectEnd("the ECDSA-Sig-Value")
                let r = try fields.read(DERTag.integer, "ECDSA r").integerContents()
                let s = try fields.read(DERTag.integer, "ECDSA s").integerContents()
                try fields.expectEnd("the ECDSA-Sig-Value's s")
                if let problem = scalarProblem(r, order: order) { return "ECDSA r \(problem)" }
                if let problem = scalarProblem(s, order: order) { return "ECDSA s \(problem)" }
                return nil
            }
        } catch {
            return "the ECDSA signature is not one DER ECDSA-Sig-Value: \(error.message)"
        }
    }

    /// Why the minimal INTEGER `value` is not in `1 ..< order`, or nil.
    private static func scalarProblem(_ value: UnsafeBufferPointer<UInt8>, order: [UInt8]) -> String? {
        guard value[0] & 0x80 == 0 else { return "is negative" }
        let magnitude = value.drop { $0 == 0 }
        guard !magnitude.isEmpty else { return "is zero" }
        let isBelowOrder = magnitude.count != order.count
            ? magnitude.count < order.count : magnitude.lexicographicallyPrecedes(order)
        return isBelowOrder ? nil : "is not below the curve order"
    }

    /// True when the little-endian number `value` is below `limit` (big-endian, no leading zero).
    static func isBelow(littleEndian value: ArraySlice<UInt8>, bigEndianLimit limit: [UInt8]) -> Bool {
        let magnitude = Array(value.reversed().drop { $0 == 0 })
        return magnitude.count != limit.count
            ? magnitude.count < limit.count : magnitude.lexicographicallyPrecedes(limit)
    }

    /// L, the order of the Ed25519 group's base point (RFC 8032 §5.1), big-endian.
    static let ed25519Order = order("1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed")
    /// L, the order of the Ed448 group's base point (RFC 8032 §5.2), big-endian.
    static let ed448Order = order(
        "3fffffffffffffffffffffffffffffffffffffffffffffffffffffff7cca23e9c44edb49aed63690216cc2728dc58f552378c292ab5844f3")

    /// The order of each named curve's group (big-endian, no leading zero), by the curve names of
    /// `PublicKeyParser.curves` (SEC 2, FIPS 186-4, RFC 5639).
    static let curveOrders: [String: [UInt8]] = [
        "prime256v1": order("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"),
        "secp384r1": order(
            "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973"),
        "secp521r1": order(
            "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409"
        ),
        "prime192v1": order("ffffffffffffffffffffffff99def836146bc9b1b4d22831"),
        "secp224r1": order("ffffffffffffffffffffffffffff16a2e0b8f03e13dd29455c5c2a3d"),
        "secp256k1": order("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"),
        "brainpoolP256r1": order("a9fb57dba1eea9bc3e660a909d838d718c397aa3b561a6f7901e0e82974856a7"),
        "brainpoolP384r1": order(
            "8cb91e82a3386d280f5d6f7e50e641df152f7109ed5456b31f166e6cac0425a7cf3ab6af6b7fc3103b883202e9046565"),
        "brainpoolP512r1": order(
            "aadd9db8dbe9c48b3fd4e6ae33c9fc07cb308db3b3c9d20ed6639cca70330870553e5c414ca92619418661197fac10471db1d381085ddaddb58796829ca90069"
        ),
    ]

    private static func order(_ hex: String) -> [UInt8] { Array(Hex.decode(hex)!.drop { $0 == 0 }) }
}
