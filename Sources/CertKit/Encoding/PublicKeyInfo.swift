/// A certificate's SubjectPublicKeyInfo.
public struct PublicKeyInfo: Sendable, Hashable {
    /// The key's algorithm and size.
    public enum Algorithm: Sendable, Hashable, CustomStringConvertible {
        /// RSA with the modulus size in bits.
        case rsa(modulusBits: Int)
        /// Elliptic curve key on a named curve (`prime256v1`, `secp384r1`, ...) with its field size in bits.
        case ec(curve: String, bits: Int)
        /// Ed25519.
        case ed25519
        /// Ed448.
        case ed448
        /// DSA with the size of p in bits (0 when parameters are inherited).
        case dsa(bits: Int)
        /// Anything else, by OID.
        case other(oid: String)

        public var description: String {
            switch self {
            case .rsa(let bits): "RSA \(bits)"
            case .ec(let curve, let bits): "EC \(curve) (\(bits) bit)"
            case .ed25519: "Ed25519"
            case .ed448: "Ed448"
            case .dsa(let bits): "DSA \(bits)"
            case .other(let oid): oid
            }
        }
    }

    /// The curve name of an EC key whose parameters spell the curve out instead of naming it.
    package static let explicitCurve = "explicit"

    /// The algorithm and size.
    public let algorithm: Algorithm
    /// The complete DER SubjectPublicKeyInfo (what an SPKI pin hashes).
    public let derEncoded: [UInt8]
    /// What is wrong with the key's encoding, or nil when it is encoded as its algorithm's RFC requires: a
    /// subjectPublicKey with unused bits, rsaEncryption parameters that are not NULL, a negative or even RSA
    /// modulus, an EC point that is not uncompressed or has the wrong length, EdDSA parameters or a key of the
    /// wrong length. Such a key is never trusted (`WeakKeySize`, as trustd treats a key it cannot use).
    package let encodingProblem: String?
    /// True for an RSA key under id-RSASSA-PSS (RFC 4055 §1.2) rather than rsaEncryption: a key restricted to PSS
    /// signatures, which Security.framework and the Baseline Requirements do not accept.
    package let isRSASSAPSSKey: Bool

    /// Creates a key info.
    package init(algorithm: Algorithm, derEncoded: [UInt8], encodingProblem: String? = nil, isRSASSAPSSKey: Bool = false) {
        self.algorithm = algorithm
        self.derEncoded = derEncoded
        self.encodingProblem = encodingProblem
        self.isRSASSAPSSKey = isRSASSAPSSKey
    }

    /// The key size in bits used for key-size floors: RSA modulus, EC field size, DSA p; nil when not meaningful.
    public var keySizeBits: Int? {
        switch algorithm {
        case .rsa(let bits): bits
        case .ec(_, let bits): bits
        case .ed25519: 256
        case .ed448: 448
        case .dsa(let bits): bits == 0 ? nil : bits
        case .other: nil
        }
    }
}
