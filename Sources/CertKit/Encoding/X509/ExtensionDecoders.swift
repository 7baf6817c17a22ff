/// Decoders for the value of each known extension (the DER inside extnValue).
enum ExtensionDecoders {
    private static func expect(_ node: DERNode, _ tag: UInt8, _ what: String) throws(CertificateDecodingError) {
        guard node.tag == tag else {
            throw CertificateDecodingError(.malformedDER, "\(what): expected \(DERTag.describe(tag)), found \(DERTag.describe(node.tag))")
        }
    }

    static func basicConstraints(_ node: DERNode) throws(CertificateDecodingError) -> BasicConstraints {
        try expect(node, DERTag.sequence, "basicConstraints")
        var fields = try node.children()
        var isCA = false
        if let flag = try fields.readIfPresent(DERTag.boolean) { isCA = try flag.boolean() }
        var pathLength: Int?
        if let length = try fields.readIfPresent(DERTag.integer) { pathLength = try length.smallInteger() }
        try fields.expectEnd("basicConstraints")
        return BasicConstraints(isCA: isCA, pathLength: pathLength)
    }

    static func keyUsage(_ node: DERNode) throws(CertificateDecodingError) -> KeyUsage {
        try expect(node, DERTag.bitString, "keyUsage")
        let bits = try node.bitString().bytes
        var raw: UInt16 = 0
        for bit in 0..<9 {
            let byteIndex = bit / 8
            guard byteIndex < bits.count else { break }
            if bits[byteIndex] & (0x80 >> UInt8(bit % 8)) != 0 { raw |= 1 << UInt16(bit) }
        }
        // RFC 5280 §4.2.1.3: "at least one of the bits MUST be set to 1".
        guard raw != 0 else { throw CertificateDecodingError(.malformedDER, "keyUsage with no bit set") }
        return KeyUsage(rawValue: raw)
    }

    static func oidSequence(_ node: DERNode) throws(CertificateDecodingError) -> [String] {
        try expect(node, DERTag.sequence, "extendedKeyUsage")
        var list = try node.children()
        var oids: [String] = []
        while let element = try list.next() { oids.append(try element.objectIdentifier()) }
        return oids
    }

    static func generalNames(_ node: DERNode, limits: Limits) throws(CertificateDecodingError) -> [GeneralName] {
        try expect(node, DERTag.sequence, "GeneralNames")
        var list = try node.children()
        return try GeneralNameParser.parseAll(&list, limits: limits)
    }

    static func nameConstraints(_ node: DERNode, limits: Limits) throws(CertificateDecodingError) -> NameConstraints {
        try expect(node, DERTag.sequence, "nameConstraints")
        var fields = try node.children()
        var permitted: [GeneralName] = []
        var excluded: [GeneralName] = []
        if let subtrees = try fields.readIfPresent(DERTag.contextConstructed(0)) { permitted = try bases(subtrees, limits: limits) }
        if let subtrees = try fields.readIfPresent(DERTag.contextConstructed(1)) { excluded = try bases(subtrees, limits: limits) }
        try fields.expectEnd("nameConstraints")
        return NameConstraints(permitted: permitted, excluded: excluded)
    }

    /// The `base` of each GeneralSubtree; IP bases must be address + mask (8 or 32 bytes); no minimum or maximum.
    private static func bases(_ node: DERNode, limits: Limits) throws(CertificateDecodingError) -> [GeneralName] {
        var list = try node.children()
        var names: [GeneralName] = []
        while let subtree = try list.next() {
            try expect(subtree, DERTag.sequence, "GeneralSubtree")
            var fields = try subtree.children()
            guard let baseNode = try fields.next() else { throw CertificateDecodingError(.malformedDER, "empty GeneralSubtree") }
            let base = try GeneralNameParser.parse(baseNode, limits: limits)
            // RFC 5280 §4.2.1.10: "the minimum MUST be zero, and maximum MUST be absent" — and DER never encodes
            // the DEFAULT 0. A subtree with either field has semantics nobody implements: malformed, fail closed.
            if try fields.next() != nil {
                throw CertificateDecodingError(.malformedDER, "GeneralSubtree with minimum or maximum (RFC 5280 §4.2.1.10)")
            }
            // A dNSName base with a trailing dot is not a host name (a SAN with one matches nothing either):
            // reading it as its dotless form would widen a permitted subtree, ignoring it would narrow an excluded one.
            if case .dnsName(let name) = base, name.hasSuffix(".") {
                throw CertificateDecodingError(.malformedDER, "name constraint dNSName with a trailing dot")
            }
            if case .ipAddress(let bytes) = base, bytes.count != 8, bytes.count != 32 {
                throw CertificateDecodingError(.malformedDER, "name constraint IP entry of \(bytes.count) bytes")
            }
            // RFC 5280 §4.2.1.10: address and mask "in CIDR notation": a mask that is not a run of ones followed by
            // zeros describes no range. Malformed, fail closed (GnuTLS refuses every certificate below it).
            if case .ipAddress(let bytes) = base, !isContiguousMask(bytes[(bytes.count / 2)...]) {
                throw CertificateDecodingError(.malformedDER, "name constraint IP mask is not contiguous")
            }
            names.append(base)
        }
        return names
    }

    /// True when `mask` is ones then zeros (`255.255.0.0`, not `255.0.255.0`).
    private static func isContiguousMask(_ mask: ArraySlice<UInt8>) -> Bool {
        var seenZero = false
        for byte in mask {
            if seenZero { if byte != 0 { return false }; continue }
            if byte == 0xFF { continue }
            // A partial byte must be ones then zeros; everything after it zero.
            if (~byte &+ 1) & ~byte != 0 && byte != 0 { return false }
            seenZero = true
        }
        return true
    }

    /// The keyIdentifier, and whether authorityCertIssuer or authorityCertSerialNumber is present.
    static func authorityKeyIdentifier(
        _ node: DERNode
    ) throws(CertificateDecodingError) -> (keyIdentifier: [UInt8]?, namesIssuer: Bool) {
        try expect(node, DERTag.sequence, "authorityKeyIdentifier")
        var fields = try node.children()
        let keyIdentifier = try fields.readIfPresent(DERTag.contextPrimitive(0))?.contentBytes
        let issuer = try fields.readIfPresent(DERTag.contextConstructed(1))
        let serial = try fields.readIfPresent(DERTag.contextPrimitive(2))
        try fields.expectEnd("authorityKeyIdentifier")
        return (keyIdentifier, issuer != nil || serial != nil)
    }

    /// PolicyConstraints ::= SEQUENCE { requireExplicitPolicy [0] SkipCerts OPTIONAL,
    /// inhibitPolicyMapping [1] SkipCerts OPTIONAL }, not empty (RFC 5280 §4.2.1.11).
    static func policyConstraints(_ node: DERNode) throws(CertificateDecodingError) -> PolicyConstraints {
        try expect(node, DERTag.sequence, "policyConstraints")
        var fields = try node.children()
        let require = try fields.readIfPresent(DERTag.contextPrimitive(0))
        let inhibit = try fields.readIfPresent(DERTag.contextPrimitive(1))
        try fields.expectEnd("policyConstraints")
        guard require != nil || inhibit != nil else {
            throw CertificateDecodingError(.malformedDER, "policyConstraints is an empty SEQUENCE")
        }
        return PolicyConstraints(
            requireExplicitPolicy: try require.map(skipCerts), inhibitPolicyMapping: try inhibit.map(skipCerts))
    }

    /// PolicyMappings ::= SEQUENCE SIZE (1..MAX) OF SEQUENCE { issuerDomainPolicy CertPolicyId,
    /// subjectDomainPolicy CertPolicyId } (RFC 5280 §4.2.1.5).
    static func policyMappings(_ node: DERNode) throws(CertificateDecodingError) -> [PolicyMapping] {
        try expect(node, DERTag.sequence, "policyMappings")
        var list = try node.children()
        var mappings: [PolicyMapping] = []
        while let element = try list.next() {
            try expect(element, DERTag.sequence, "PolicyMapping")
            var fields = try element.children()
            let issuer = try fields.read(DERTag.objectIdentifier, "issuerDomainPolicy").objectIdentifier()
            let subject = try fields.read(DERTag.objectIdentifier, "subjectDomainPolicy").objectIdentifier()
            try fields.expectEnd("PolicyMapping")
            mappings.append(PolicyMapping(issuerDomainPolicy: issuer, subjectDomainPolicy: subject))
        }
        guard !mappings.isEmpty else { throw CertificateDecodingError(.malformedDER, "policyMappings is an empty SEQUENCE") }
        return mappings
    }

    /// SkipCerts ::= INTEGER (0..MAX), implicitly tagged.
    private static func skipCerts(_ node: DERNode) throws(CertificateDecodingError) -> Int {
        let bytes = node.contentBytes
        guard !bytes.isEmpty, bytes.count <= 4, bytes[0] & 0x80 == 0,
              bytes.count == 1 || !(bytes[0] == 0 && bytes[1] & 0x80 == 0)
        else { throw CertificateDecodingError(.malformedDER, "SkipCerts is not a small non-negative DER INTEGER") }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    static func crlDistributionPoints(_ node: DERNode, limits: Limits) throws(CertificateDecodingError) -> [GeneralName] {
        try expect(node, DERTag.sequence, "cRLDistributionPoints")
        var points = try node.children()
        var names: [GeneralName] = []
        while let point = try points.next() {
            try expect(point, DERTag.sequence, "DistributionPoint")
            var fields = try point.children()
            if let pointName = try fields.readIfPresent(DERTag.contextConstructed(0)) {
                var choice = try pointName.children()
                if let fullName = try choice.readIfPresent(DERTag.contextConstructed(0)) {
                    var list = try fullName.children()
                    names += try GeneralNameParser.parseAll(&list, limits: limits)
                }
            }
        }
        return names
    }

    static func authorityInfoAccess(_ node: DERNode, limits: Limits) throws(CertificateDecodingError) -> [AccessDescription] {
        try expect(node, DERTag.sequence, "authorityInfoAccess")
        var list = try node.children()
        var result: [AccessDescription] = []
        while let element = try list.next() {
            try expect(element, DERTag.sequence, "AccessDescription")
            var fields = try element.children()
            let method = try fields.read(DERTag.objectIdentifier, "accessMethod").objectIdentifier()
            guard let locationNode = try fields.next() else { throw CertificateDecodingError(.malformedDER, "missing accessLocation") }
            try fields.expectEnd("AccessDescription")
            result.append(AccessDescription(method: method, location: try GeneralNameParser.parse(locationNode, limits: limits)))
        }
        return result
    }

    static func certificatePolicies(_ node: DERNode) throws(CertificateDecodingError) -> [String] {
        try expect(node, DERTag.sequence, "certificatePolicies")
        var list = try node.children()
        var oids: [String] = []
        while let element = try list.next() {
            try expect(element, DERTag.sequence, "PolicyInformation")
            var fields = try element.children()
            oids.append(try fields.read(DERTag.objectIdentifier, "policyIdentifier").objectIdentifier())
        }
        return oids
    }
}
