/// RFC 5280 §4.2.1.10 name constraints for DNS names, IP addresses, email addresses and directory names.
///
/// For each name form a certificate carries: when the constraints permit any subtree of that form, the name
/// must lie in one of them; it must lie in none of the excluded subtrees of that form.
///
/// iPAddress is ONE form across address families, and fails closed (`IPAddressRange` has the address model):
/// - when a CA permits any iPAddress subtree, IPv4 or IPv6, every IP name must lie in one of the permitted
///   ranges of its own family — IPv4 (4 bytes, 8-byte ranges), IPv4-mapped IPv6 (`::ffff:a.b.c.d`, ranges inside
///   `::ffff:0:0/96`) or other IPv6 — as RFC 5280 §4.2.1.10 compares an address only with ranges of its length
///   (and OpenSSL, Chrome, Go and pyca/cryptography do): permitting only `10.0.0.0/8` forbids `2001:db8::1` and
///   `::ffff:10.0.0.1`, permitting only `::ffff:192.0.2.0/120` forbids the IPv4 address `192.0.2.10`, and `::/0`
///   permits no IPv4 and no IPv4-mapped address;
/// - IPv4-mapped IPv6 addresses are IPv4 for excluded subtrees, as names and as ranges (`::ffff:10.0.0.0/104`
///   excludes `10.0.0.0/8`), so an excluded range cannot be evaded through the other spelling;
/// - every excluded subtree applies to every IP name: an IPv4 name is also excluded by an IPv6 range that
///   contains its mapped form (`::/0` excludes everything);
/// - a malformed range (length other than 8 or 32 bytes, non-contiguous mask) permits nothing and excludes
///   everything; an IP name that is not 4 or 16 bytes violates any iPAddress constraint.
/// This applies to iPAddress subjectAltNames and to the peer IP address the SSL policy matched.
package enum NameConstraintsChecker {
    /// The names of `certificate` that `constraints` applies to: SAN entries, the subject (as a directory name,
    /// when not empty) and the subject's emailAddress attributes, plus `extraNames` (e.g. the matched host).
    package static func violations(
        of constraints: NameConstraints, certificate: Certificate, extraNames: [GeneralName] = []
    ) -> [GeneralName] {
        var names = certificate.extensions.subjectAlternativeNames ?? []
        if !certificate.subject.relativeNames.isEmpty { names.append(.directoryName(certificate.subject)) }
        names += certificate.subject.emailAddresses.map { GeneralName.email($0) }
        names += extraNames
        return names.filter { !isAllowed($0, by: constraints) }
    }

    /// True when `name` is permitted and not excluded.
    package static func isAllowed(_ name: GeneralName, by constraints: NameConstraints) -> Bool {
        if case .ipAddress(let address) = name { return isAllowed(ipAddress: address, by: constraints) }
        let permittedOfForm = constraints.permitted.filter { sameForm($0, name) }
        if !permittedOfForm.isEmpty && !permittedOfForm.contains(where: { within(name, subtree: $0) }) { return false }
        if constraints.excluded.contains(where: { sameForm($0, name) && within(name, subtree: $0, excluding: true) }) {
            return false
        }
        // A wildcard dNSName stands for every name it can match: excluded when one of them is an excluded base.
        if case .dnsName(let host) = name, HostnameMatcher.normalize(host) == "*" {
            return !constraints.excluded.contains { if case .dnsName = $0 { return true } else { return false } }
        }
        if case .dnsName(let host) = name, HostnameMatcher.normalize(host).hasPrefix("*.") {
            let domain = HostnameMatcher.normalize(host).dropFirst(2)
            return !constraints.excluded.contains {
                guard case .dnsName(let base) = $0 else { return false }
                let normalized = HostnameMatcher.normalize(base)
                guard let dot = normalized.firstIndex(of: "."), dot != normalized.startIndex else { return false }
                return normalized[normalized.index(after: dot)...] == domain
            }
        }
        return true
    }

    /// The iPAddress rule (see the type's documentation).
    static func isAllowed(ipAddress bytes: [UInt8], by constraints: NameConstraints) -> Bool {
        isAllowed(
            ipAddress: bytes, permitted: constraints.permitted.compactMap(ipRange),
            excluded: constraints.excluded.compactMap(ipRange))
    }

    /// The iPAddress rule over ranges read once (`ipRange` of each iPAddress subtree).
    static func isAllowed(ipAddress bytes: [UInt8], permitted: [IPAddressRange?], excluded: [IPAddressRange?]) -> Bool {
        if permitted.isEmpty && excluded.isEmpty { return true }
        guard let address = IPAddressRange.canonicalAddress(bytes) else { return false }
        if !permitted.isEmpty && !permitted.contains(where: { $0?.permits(bytes) ?? false }) { return false }
        return !excluded.contains { $0?.containsInIPv6Form(address) ?? true }
    }

    /// For an iPAddress subtree: its range, or `.some(nil)` when malformed; nil for other forms.
    static func ipRange(_ base: GeneralName) -> IPAddressRange?? {
        guard case .ipAddress(let bytes) = base else { return nil }
        return .some(IPAddressRange(constraint: bytes))
    }

    static func sameForm(_ a: GeneralName, _ b: GeneralName) -> Bool {
        switch (a, b) {
        case (.dnsName, .dnsName), (.email, .email), (.directoryName, .directoryName), (.uri, .uri),
             (.ipAddress, .ipAddress): true
        default: false
        }
    }

    /// True when `name` lies within `subtree`. A mailbox subtree's local part is compared exactly in a permitted
    /// subtree (RFC 5280 §7.5: the local part is case-sensitive) and case-insensitively when `excluding` (the safe
    /// side: `Admin@example.com` is excluded by `admin@example.com`).
    static func within(_ name: GeneralName, subtree: GeneralName, excluding: Bool = false) -> Bool {
        switch (name, subtree) {
        case (.dnsName(let host), .dnsName(let base)):
            return dnsWithin(HostnameMatcher.normalize(host), base: HostnameMatcher.normalize(base))
        case (.email(let address), .email(let base)):
            return emailWithin(address, base: base, foldingLocalPart: excluding)
        case (.ipAddress(let address), .ipAddress(let range)):
            return IPAddressRange(constraint: range)?.permits(address) ?? false
        case (.directoryName(let subject), .directoryName(let base)):
            guard base.relativeNames.count <= subject.relativeNames.count else { return false }
            for (rdn, baseRDN) in zip(subject.relativeNames, base.relativeNames) where !rdnMatches(rdn, baseRDN) {
                return false
            }
            return true
        case (.uri(let uri), .uri(let base)):
            // RFC 5280 §4.2.1.10: a URI constraint is a host (that host only) or, with a leading period, a domain.
            guard let host = uriHost(uri) else { return false }
            let base = HostnameMatcher.normalize(base)
            return base.hasPrefix(".") ? host.hasSuffix(base) : host == base
        default:
            return false
        }
    }

    static func dnsWithin(_ host: String, base: String) -> Bool {
        if base.isEmpty { return true }
        if base.hasPrefix(".") { return host.hasSuffix(base) }
        return host == base || host.hasSuffix("." + base)
    }

    /// The rfc822Name rule: a base `local@host` is that mailbox (the host compared case-insensitively, the local
    /// part exactly unless `foldingLocalPart`), `host` any mailbox at that host, `.domain` any mailbox at a host
    /// below it; a leading `@` is ignored. The address's host is what follows its last `@`.
    static func emailWithin(_ address: String, base: String, foldingLocalPart: Bool = false) -> Bool {
        let constraint = base.hasPrefix("@") ? String(base.dropFirst()) : base
        guard let at = address.lastIndex(of: "@") else { return false }
        let host = address[address.index(after: at)...].lowercased()
        if let baseAt = constraint.lastIndex(of: "@") {
            let local = String(address[..<at]), baseLocal = String(constraint[..<baseAt])
            let sameLocal = foldingLocalPart ? local.lowercased() == baseLocal.lowercased() : local == baseLocal
            return sameLocal && host == constraint[constraint.index(after: baseAt)...].lowercased()
        }
        let lowered = constraint.lowercased()
        if lowered.hasPrefix(".") { return host.hasSuffix(lowered) }
        return host == lowered
    }

    static func rdnMatches(_ a: [DistinguishedName.Attribute], _ b: [DistinguishedName.Attribute]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { lhs, rhs in
            lhs.oid == rhs.oid && fold(lhs.value) == fold(rhs.value)
        }
    }

    /// RFC 5280 §7.1 string comparison: case-insensitive, leading/trailing space trimmed, inner runs folded.
    static func fold(_ value: String) -> String {
        value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    static func uriHost(_ uri: String) -> String? {
        guard let schemeEnd = uri.range(of: "://") else { return nil }
        let rest = uri[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPort = authority.split(separator: "@").last.map(String.init) ?? ""
        let host = hostPort.split(separator: ":").first.map(String.init) ?? ""
        return host.isEmpty ? nil : HostnameMatcher.normalize(host)
    }
}
