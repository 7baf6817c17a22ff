/// A signature algorithm identifier, with its digest where one is implied.
public struct SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
    /// The dotted OID, e.g. `1.2.840.113549.1.1.11`.
    public let oid: String
    /// A readable name, e.g. `sha256WithRSAEncryption`, or the OID when unknown.
    public let name: String
    /// The digest the algorithm uses, when known.
    public let hash: HashAlgorithm?

    /// Creates an identifier; `name` and `hash` are derived from the OID table when not given.
    public init(oid: String, name: String? = nil, hash: HashAlgorithm? = nil) {
        let known = SignatureAlgorithm.known[oid]
        self.oid = oid
        self.name = name ?? known?.0 ?? oid
        self.hash = hash ?? known?.1
    }

    public var description: String { name }

    static let known: [String: (String, HashAlgorithm?)] = [
        "1.2.840.113549.1.1.2": ("md2WithRSAEncryption", .md2),
        "1.2.840.113549.1.1.3": ("md4WithRSAEncryption", .md4),
        "1.2.840.113549.1.1.4": ("md5WithRSAEncryption", .md5),
        "1.2.840.113549.1.1.5": ("sha1WithRSAEncryption", .sha1),
        "1.2.840.113549.1.1.10": ("rsassaPss", nil),
        "1.2.840.113549.1.1.11": ("sha256WithRSAEncryption", .sha256),
        "1.2.840.113549.1.1.12": ("sha384WithRSAEncryption", .sha384),
        "1.2.840.113549.1.1.13": ("sha512WithRSAEncryption", .sha512),
        "1.2.840.113549.1.1.14": ("sha224WithRSAEncryption", .sha224),
        "1.2.840.10045.4.1": ("ecdsa-with-SHA1", .sha1),
        "1.2.840.10045.4.3.1": ("ecdsa-with-SHA224", .sha224),
        "1.2.840.10045.4.3.2": ("ecdsa-with-SHA256", .sha256),
        "1.2.840.10045.4.3.3": ("ecdsa-with-SHA384", .sha384),
        "1.2.840.10045.4.3.4": ("ecdsa-with-SHA512", .sha512),
        "1.2.840.10040.4.3": ("dsa-with-SHA1", .sha1),
        "2.16.840.1.101.3.4.3.2": ("dsa-with-SHA256", .sha256),
        "1.3.101.112": ("ED25519", nil),
        "1.3.101.113": ("ED448", nil),
    ]
}

/// Digest algorithms that appear in certificate signatures.
public enum HashAlgorithm: String, Sendable, Hashable, CaseIterable {
    case md2, md4, md5, sha1, sha224, sha256, sha384, sha512

    /// MD2, MD4 and MD5: broken; a signature over them is a fatal failure (DESIGN §3).
    public var isBroken: Bool { self == .md2 || self == .md4 || self == .md5 }
}
