/// The OIDs certificates are made of, looked up by their encoded bytes so that parsing does not build a dotted
/// string for each of them (that was a fifth of the parse time). Anything not in the table is decoded as usual.
enum KnownOIDs {
    /// Dotted text by encoded contents, built once from the tables the parser already has.
    static let byEncoding: [OIDKey: String] = {
        var dotted = Set<String>()
        dotted.formUnion(SignatureAlgorithm.allowlist.keys)
        dotted.formUnion(ExtensionOID.names.keys)
        dotted.formUnion(AttributeNames.shortNames.keys)
        dotted.formUnion(PublicKeyParser.curves.keys)
        dotted.formUnion([
            PublicKeyParser.rsaEncryption, PublicKeyParser.rsassaPSS, PublicKeyParser.ecPublicKey,
            PublicKeyParser.ed25519, PublicKeyParser.ed448, PublicKeyParser.dsa,
            ExtendedKeyUsageOID.serverAuth, ExtendedKeyUsageOID.clientAuth, ExtendedKeyUsageOID.codeSigning,
            ExtendedKeyUsageOID.emailProtection, ExtendedKeyUsageOID.timeStamping, ExtendedKeyUsageOID.ocspSigning,
            ExtendedKeyUsageOID.anyExtendedKeyUsage,
            "1.3.6.1.5.5.7.48.1", "1.3.6.1.5.5.7.48.2",  // OCSP, caIssuers
            "2.5.29.32.0", "2.23.140.1.2.1", "2.23.140.1.2.2", "2.23.140.1.2.3", "2.23.140.1.1",  // policies
            "1.3.6.1.4.1.11129.2.4.2",  // embedded SCTs
            "2.16.840.1.101.3.4.2.1", "2.16.840.1.101.3.4.2.2", "2.16.840.1.101.3.4.2.3",  // SHA-2 (PSS)
            "1.2.840.113549.1.1.8",  // MGF1
            "2.5.29.33", "2.5.29.36", "2.5.29.54",  // policy mappings/constraints, inhibitAnyPolicy
        ])
        var table: [OIDKey: String] = [:]
        for text in dotted {
            if let bytes = encode(text) { table[OIDKey(bytes[...])] = text }
        }
        return table
    }()

    /// The dotted text of `contents`, when it is a known OID.
    static func lookup(_ contents: ArraySlice<UInt8>) -> String? { byEncoding[OIDKey(contents)] }

    /// The DER contents of a dotted OID (used to build the table).
    static func encode(_ text: String) -> [UInt8]? {
        let arcs = text.split(separator: ".").compactMap { UInt64($0) }
        guard arcs.count >= 2, arcs[0] <= 2 else { return nil }
        var bytes: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            bytes += chunk
        }
        return bytes
    }
}

/// Encoded OID contents as a dictionary key, hashed in one pass.
struct OIDKey: Hashable, Sendable {
    let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    static func == (lhs: OIDKey, rhs: OIDKey) -> Bool { lhs.bytes.elementsEqual(rhs.bytes) }

    func hash(into hasher: inout Hasher) {
        hasher.combine(encoding: bytes)
    }
}
