/// The OIDs certificates are made of, looked up by their encoded bytes so that parsing does not build a dotted
/// string for each of them (that was a fifth of the parse time). Anything not in the table is decoded as usual.
enum KnownOIDs {
    /// One known OID: its DER contents and its dotted text.
    struct Entry: Sendable {
        let encoding: [UInt8]
        let text: String
    }

    /// Every known OID, built once from the tables the parser already has.
    static let entries: [Entry] = {
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
        return dotted.sorted().compactMap { text in encode(text).map { Entry(encoding: $0, text: text) } }
    }()

    /// Open addressing over a fixed table (a power of two, at least four times the entries): slot → entry index
    /// + 1, 0 for empty. The table never grows with the input, so a lookup costs a short probe whatever the
    /// input holds; an unknown OID ends at the first empty slot.
    private static let slotMask = 511
    private static let slots: [UInt16] = {
        precondition(entries.count * 4 <= slotMask + 1, "the known-OID table needs more slots")
        var slots = [UInt16](repeating: 0, count: slotMask + 1)
        for (index, entry) in entries.enumerated() {
            var slot = hash(entry.encoding[...]) & slotMask
            while slots[slot] != 0 { slot = (slot + 1) & slotMask }
            slots[slot] = UInt16(index + 1)
        }
        return slots
    }()

    /// FNV-1a over the contents, folded to an Int (no random seed is needed: the table is fixed).
    private static func hash<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Int {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        return Int(truncatingIfNeeded: value ^ (value >> 29))
    }

    /// The dotted text of `contents`, when it is a known OID.
    static func lookup<Bytes: RandomAccessCollection<UInt8>>(_ contents: Bytes) -> String? {
        var slot = hash(contents) & slotMask
        while true {
            let occupant = Int(slots[slot])
            if occupant == 0 { return nil }
            let entry = entries[occupant - 1]
            if entry.encoding.count == contents.count && entry.encoding.elementsEqual(contents) { return entry.text }
            slot = (slot + 1) & slotMask
        }
    }

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
