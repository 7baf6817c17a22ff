/// A signature AlgorithmIdentifier as it appears in a certificate or CRL, with what the core's allowlist says
/// about it (`scheme`).
///
/// The core knows every accepted signature algorithm by OID, legacy aliases included; an algorithm it does not
/// know, or whose parameters are not the ones the algorithm requires, has no scheme, and a signature under it
/// never verifies (fail closed).
public struct SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
    /// The dotted OID, e.g. `1.2.840.113549.1.1.11`.
    public let oid: String
    /// A readable name, e.g. `sha256WithRSAEncryption`, or the OID when unknown.
    public let name: String
    /// The digest the algorithm uses, when known (for RSASSA-PSS, from its parameters).
    public let hash: HashAlgorithm?
    /// How to verify a signature under this identifier; nil when the allowlist refuses it (unknown OID,
    /// unexpected or malformed parameters). ``rejection`` says why.
    package let scheme: SignatureScheme?
    /// Why `scheme` is nil.
    package let rejection: String?
    /// The complete DER AlgorithmIdentifier (empty when made from an OID alone).
    package let encoded: [UInt8]

    /// Creates an identifier from an OID with absent parameters; `name` and `hash` are derived from the allowlist.
    package init(oid: String, name: String? = nil, hash: HashAlgorithm? = nil) {
        let entry = SignatureAlgorithm.allowlist[oid]
        self.init(
            oid: oid, name: name ?? entry?.name ?? oid, hash: hash ?? entry?.hash,
            scheme: entry?.fixedScheme,
            rejection: entry == nil ? "signature algorithm \(oid) is not on certkit's allowlist" : nil, encoded: [])
    }

    init(oid: String, name: String, hash: HashAlgorithm?, scheme: SignatureScheme?, rejection: String?, encoded: [UInt8]) {
        self.oid = oid
        self.name = name
        self.hash = hash
        self.scheme = scheme
        self.rejection = scheme == nil ? (rejection ?? "signature algorithm \(name) is not allowed") : nil
        self.encoded = encoded
    }

    public var description: String { name }

    /// One allowlist entry: the algorithm family, its digest, and whether parameters must be absent.
    struct Entry: Sendable {
        enum Family: Sendable { case rsaPKCS1, rsaPSS, ecdsa, ed25519, ed448 }
        let name: String
        let family: Family
        let hash: HashAlgorithm?

        /// The scheme for entries without parameters (every family but RSASSA-PSS).
        var fixedScheme: SignatureScheme? {
            switch family {
            case .rsaPKCS1: hash.map { .rsaPKCS1($0) }
            case .ecdsa: hash.map { .ecdsa($0) }
            case .ed25519: .ed25519
            case .ed448: .ed448
            case .rsaPSS: nil
            }
        }

        /// RSA PKCS#1 v1.5 takes NULL or absent parameters; ECDSA and EdDSA take none (RFC 5758, RFC 8410).
        var allowsNullParameters: Bool { family == .rsaPKCS1 }
    }

    private static func rsa(_ name: String, _ hash: HashAlgorithm) -> Entry { Entry(name: name, family: .rsaPKCS1, hash: hash) }
    private static func ecdsa(_ name: String, _ hash: HashAlgorithm) -> Entry { Entry(name: name, family: .ecdsa, hash: hash) }

    /// Every signature algorithm certkit accepts, by OID. DSA is not accepted.
    static let allowlist: [String: Entry] = [
        "1.2.840.113549.1.1.2": rsa("md2WithRSAEncryption", .md2),
        "1.2.840.113549.1.1.3": rsa("md4WithRSAEncryption", .md4),
        "1.2.840.113549.1.1.4": rsa("md5WithRSAEncryption", .md5),
        "1.2.840.113549.1.1.5": rsa("sha1WithRSAEncryption", .sha1),
        "1.2.840.113549.1.1.14": rsa("sha224WithRSAEncryption", .sha224),
        "1.2.840.113549.1.1.11": rsa("sha256WithRSAEncryption", .sha256),
        "1.2.840.113549.1.1.12": rsa("sha384WithRSAEncryption", .sha384),
        "1.2.840.113549.1.1.13": rsa("sha512WithRSAEncryption", .sha512),
        // Legacy aliases (OIW): the same algorithms under other OIDs.
        "1.3.14.3.2.3": rsa("md5WithRSA (OIW)", .md5),
        "1.3.14.3.2.29": rsa("sha1WithRSA (OIW)", .sha1),
        "1.2.840.113549.1.1.10": Entry(name: "rsassaPss", family: .rsaPSS, hash: nil),
        "1.2.840.10045.4.1": ecdsa("ecdsa-with-SHA1", .sha1),
        "1.2.840.10045.4.3.1": ecdsa("ecdsa-with-SHA224", .sha224),
        "1.2.840.10045.4.3.2": ecdsa("ecdsa-with-SHA256", .sha256),
        "1.2.840.10045.4.3.3": ecdsa("ecdsa-with-SHA384", .sha384),
        "1.2.840.10045.4.3.4": ecdsa("ecdsa-with-SHA512", .sha512),
        "1.3.101.112": Entry(name: "ED25519", family: .ed25519, hash: nil),
        "1.3.101.113": Entry(name: "ED448", family: .ed448, hash: nil),
    ]

    /// Readable names of algorithms certkit refuses but can name (shown by `inspect`).
    static let refusedNames: [String: String] = [
        "1.2.840.10040.4.3": "dsa-with-SHA1", "2.16.840.1.101.3.4.3.1": "dsa-with-SHA224",
        "2.16.840.1.101.3.4.3.2": "dsa-with-SHA256",
    ]
}

/// How a signature is verified: the primitive, its digest and its parameters. Only the allowlist makes these.
package enum SignatureScheme: Sendable, Hashable, CustomStringConvertible {
    /// RSASSA-PKCS1-v1_5 with the digest.
    case rsaPKCS1(HashAlgorithm)
    /// RSASSA-PSS with the digest, MGF1 over the same digest, and the salt length in bytes.
    case rsaPSS(HashAlgorithm, saltLength: Int)
    /// ECDSA with the digest.
    case ecdsa(HashAlgorithm)
    /// Ed25519 (pure).
    case ed25519
    /// Ed448 (pure).
    case ed448

    /// The digest, when the scheme has one.
    package var hash: HashAlgorithm? {
        switch self {
        case .rsaPKCS1(let hash), .rsaPSS(let hash, _), .ecdsa(let hash): hash
        case .ed25519, .ed448: nil
        }
    }

    /// True when a key of `algorithm` can make signatures under this scheme.
    package func accepts(_ algorithm: PublicKeyInfo.Algorithm) -> Bool {
        switch (self, algorithm) {
        case (.rsaPKCS1, .rsa), (.rsaPSS, .rsa), (.ecdsa, .ec), (.ed25519, .ed25519), (.ed448, .ed448): true
        default: false
        }
    }

    package var description: String {
        switch self {
        case .rsaPKCS1(let hash): "RSA PKCS#1 v1.5 with \(hash.rawValue)"
        case .rsaPSS(let hash, let salt): "RSASSA-PSS with \(hash.rawValue), salt \(salt)"
        case .ecdsa(let hash): "ECDSA with \(hash.rawValue)"
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        }
    }
}

/// Digests that appear in certificate signatures.
public enum HashAlgorithm: String, Sendable, Hashable, CaseIterable {
    case md2, md4, md5, sha1, sha224, sha256, sha384, sha512

    /// MD2, MD4 and MD5: broken; a signature over them is a fatal failure (Docs/TrustModel.md).
    public var isBroken: Bool { self == .md2 || self == .md4 || self == .md5 }

    /// The digest's output length in bytes.
    public var length: Int {
        switch self {
        case .md2, .md4, .md5: 16
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }
}
