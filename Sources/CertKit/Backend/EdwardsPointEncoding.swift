/// The encoding of an EdDSA point (RFC 8032 §5.1.2, §5.2.2): a public key `A`, or a signature's `R`. The core refuses
/// before any library sees it an encoding that does not decode (a `y` coordinate not below `p`; for Ed448 a final
/// octet with bits besides the sign of `x`), and a point of small order (the identity, the points of order 2, 4 and
/// 8, whatever the sign bit says).
///
/// A public key of small order verifies a fixed signature (`R` the identity, `S` = 0) on every message: OpenSSL and
/// GnuTLS both trusted an intermediate with such a key certified by a genuine root, and whoever held nothing could
/// then issue under it. A non-canonical encoding of such a point verified on OpenSSL and not on GnuTLS, and a
/// signature whose `R` is the identity on GnuTLS and not on OpenSSL (a CRL one backend applied and the other did not).
enum EdwardsPointEncoding {
    /// Why `point` (32 bytes for Ed25519, 57 for Ed448, little-endian) is no acceptable point, or nil.
    static func problem(_ point: ArraySlice<UInt8>, ed448: Bool) -> String? {
        let length = ed448 ? 57 : 32
        guard point.count == length else { return "the point is \(point.count) bytes long, not \(length)" }
        var y = Array(point)
        if ed448 {
            guard y[56] & 0x7F == 0 else { return "the point's final octet has bits besides the sign of x (RFC 8032 §5.2.2)" }
            y.removeLast()
        } else {
            y[31] &= 0x7F  // the sign of x
        }
        let bigEndian = Array(y.reversed().drop { $0 == 0 })
        let prime = ed448 ? ed448Prime : ed25519Prime
        let isBelowPrime = bigEndian.count != prime.count
            ? bigEndian.count < prime.count : bigEndian.lexicographicallyPrecedes(prime)
        guard isBelowPrime else { return "the point's y is not below p: it does not decode (RFC 8032 §5.1.3, §5.2.3)" }
        if (ed448 ? ed448SmallOrderY : ed25519SmallOrderY).contains(bigEndian) {
            return "the point has small order (it verifies a fixed signature on every message)"
        }
        return nil
    }

    /// p = 2^255 − 19, big-endian.
    static let ed25519Prime = bytes("7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed")
    /// p = 2^448 − 2^224 − 1, big-endian.
    static let ed448Prime = bytes(
        "fffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff")
    /// The y coordinates of Ed25519's points of order 1, 2, 4 and 8 (big-endian, no leading zero): 1, p − 1, 0 and
    /// the two y values of the order-8 points.
    static let ed25519SmallOrderY: Set<[UInt8]> = [
        [0x01], [],
        bytes("7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec"),
        bytes("05fc536d880238b13933c6d305acdfd5f098eff289f4c345b027b2c28f95e826"),
        bytes("7a03ac9277fdc74ec6cc392cfa53202a0f67100d760b3cba4fd84d3d706a17c7"),
    ]
    /// The y coordinates of Ed448's points of order 1, 2 and 4: 1, p − 1 and 0.
    static let ed448SmallOrderY: Set<[UInt8]> = [
        [0x01], [],
        bytes("fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffffffffffffffffffffffffffffffffffffffffffffffffffffe"),
    ]

    private static func bytes(_ hex: String) -> [UInt8] { Array(Hex.decode(hex)!.drop { $0 == 0 }) }
}
