/// One CA's name constraints prepared once for checking many names: DNS, URI-host and email bases go into
/// sets, so a name costs a few set lookups (one per label) instead of one comparison per constraint. The
/// decisions are exactly those of ``NameConstraintsChecker`` (tests compare the two).
struct CompiledNameConstraints: Sendable {
    private let permitted: Subtrees
    private let excluded: Subtrees

    init(_ constraints: NameConstraints) {
        permitted = Subtrees(constraints.permitted, foldingLocalParts: false)
        excluded = Subtrees(constraints.excluded, foldingLocalParts: true)
    }

    /// The names of `certificate` (SAN entries, the subject as a directory name, the subject's email addresses)
    /// and `extraNames` that are not allowed, and with `validNamesOnly` also every subjectAltName that is not a
    /// valid name of its type while a permitted or excluded subtree has its form: the list
    /// ``NameConstraintsChecker/violations(of:certificate:extraNames:validNamesOnly:)`` gives, de-duplicated by a
    /// set rather than a search.
    func violations(of certificate: Certificate, extraNames: [GeneralName] = [], validNamesOnly: Bool = false) -> [GeneralName] {
        let alternativeNames = certificate.extensions.subjectAlternativeNames ?? []
        var names = alternativeNames
        if !certificate.subject.relativeNames.isEmpty { names.append(.directoryName(certificate.subject)) }
        names += certificate.subject.emailAddresses.map { GeneralName.email($0) }
        names += extraNames
        var found = names.filter { !isAllowed($0) }
        guard validNamesOnly else { return found }
        var listed = Set(found)
        for name in alternativeNames where !NameSyntax.isValid(name) {
            if (permitted.hasForm(of: name) || excluded.hasForm(of: name)) && listed.insert(name).inserted { found.append(name) }
        }
        return found
    }

    /// True when `name` is permitted (when any permitted subtree has its form) and not excluded.
    func isAllowed(_ name: GeneralName) -> Bool {
        switch name {
        case .dnsName(let host):
            let normalized = HostnameMatcher.normalize(host)
            // A wildcard dNSName stands for every name it can match: it is excluded when one of them is.
            return permitted.dns.allows(normalized) && !excluded.dns.matches(normalized)
                && !(normalized.hasPrefix("*.") && excluded.dns.holdsMatchOf(wildcard: normalized))
                && !(normalized == "*" && !excluded.dns.isEmpty)
        case .uri(let uri):
            let host = NameConstraintsChecker.uriHost(uri)
            if !permitted.uri.isEmpty && !(host.map(permitted.uri.matches) ?? false) { return false }
            return !(host.map(excluded.uri.matches) ?? false)
        case .email(let address):
            return permitted.email.allows(address) && !excluded.email.matches(address)
        case .ipAddress(let address):
            return NameConstraintsChecker.isAllowed(ipAddress: address, permitted: permitted.ip, excluded: excluded.ip)
        case .directoryName(let name):
            let rdns = DirectoryBase.folded(name)
            if !permitted.directories.isEmpty && !permitted.directories.contains(where: { $0.isPrefix(of: rdns) }) {
                return false
            }
            return !excluded.directories.contains { $0.isPrefix(of: rdns) }
        case .other:
            return true
        }
    }

    /// The bases of one list (permitted or excluded), by form.
    private struct Subtrees: Sendable {
        var dns = HostBases()
        /// URI bases: a host names that host only; `.domain` the hosts below it (RFC 5280 §4.2.1.10).
        var uri = HostBases(exactBasesCoverSubdomains: false)
        var email: EmailBases
        /// iPAddress ranges, nil where malformed (one form across families; see ``NameConstraintsChecker``).
        var ip: [IPAddressRange?] = []
        var directories: [DirectoryBase] = []

        /// True when some base has the form of `name` (iPAddress is one form across families).
        func hasForm(of name: GeneralName) -> Bool {
            switch name {
            case .dnsName: !dns.isEmpty
            case .uri: !uri.isEmpty
            case .email: !email.isEmpty
            case .ipAddress: !ip.isEmpty
            case .directoryName: !directories.isEmpty
            case .other: false
            }
        }

        init(_ bases: [GeneralName], foldingLocalParts: Bool) {
            email = EmailBases(foldingLocalParts: foldingLocalParts)
            for base in bases {
                switch base {
                case .dnsName(let name): dns.add(HostnameMatcher.normalize(name))
                case .uri(let name): uri.add(HostnameMatcher.normalize(name))
                case .email(let name): email.add(name)
                case .ipAddress: ip.append(NameConstraintsChecker.ipRange(base) ?? nil)
                case .directoryName(let name): directories.append(DirectoryBase(name))
                default: break
                }
            }
        }
    }
}

/// DNS-style bases (normalized): empty (everything), `.example.com` (strictly below), `example.com` (itself and
/// below). A host is checked against each of its suffixes that starts at a label boundary.
private struct HostBases: Sendable {
    /// True for DNS (`example.com` holds its subdomains); false for URI hosts (`example.com` is that host only,
    /// and an empty base holds nothing).
    let exactBasesCoverSubdomains: Bool
    private var matchesAll = false
    private var exact: Set<String> = []
    private var dotted: Set<String> = []
    private(set) var isEmpty = true

    init(exactBasesCoverSubdomains: Bool = true) { self.exactBasesCoverSubdomains = exactBasesCoverSubdomains }

    /// The parent domain of every exact base (`b.example.com` → `example.com`).
    private var exactParents: Set<String> = []

    mutating func add(_ base: String) {
        isEmpty = false
        if base.isEmpty {
            if exactBasesCoverSubdomains { matchesAll = true }
        } else if base.hasPrefix(".") {
            dotted.insert(base)
        } else {
            exact.insert(base)
            if let dot = base.firstIndex(of: "."), dot != base.startIndex {
                exactParents.insert(String(base[base.index(after: dot)...]))
            }
        }
    }

    /// True when a name the wildcard `*.domain` can match (one label left of `domain`) is itself an exact base:
    /// excluded `wild.example.com` holds a name `*.example.com` matches.
    func holdsMatchOf(wildcard: String) -> Bool {
        exactParents.contains(String(wildcard.dropFirst(2)))
    }

    /// No base at all, or one that holds `host`.
    func allows(_ host: String) -> Bool { isEmpty || matches(host) }

    /// `host` lies within one of the bases (as ``NameConstraintsChecker/dnsWithin(_:base:)`` decides).
    func matches(_ host: String) -> Bool {
        if isEmpty { return false }
        if matchesAll || exact.contains(host) { return true }
        var index = host.startIndex
        while let dot = host[index...].firstIndex(of: ".") {
            let suffix = host[dot...]
            if dotted.contains(String(suffix)) { return true }
            if exactBasesCoverSubdomains && exact.contains(String(suffix.dropFirst())) { return true }
            index = host.index(after: dot)
        }
        return false
    }
}

/// Email bases: a mailbox (`user@host`), a host (`host`, any mailbox there), or a domain (`.host`, any mailbox at
/// a host below it); a leading `@` is ignored. Hosts are compared case-insensitively; a mailbox's local part
/// exactly, or case-insensitively when `foldingLocalParts` (excluded subtrees: the safe side), as
/// ``NameConstraintsChecker/emailWithin(_:base:foldingLocalPart:)`` decides.
private struct EmailBases: Sendable {
    let foldingLocalParts: Bool
    private var mailboxes: Set<String> = []
    private var hosts: Set<String> = []
    private var domains: Set<String> = []
    private(set) var isEmpty = true

    init(foldingLocalParts: Bool) { self.foldingLocalParts = foldingLocalParts }

    /// `local@host` with the host lowercased, and the local part too when folding.
    private func mailbox(_ address: Substring) -> String? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let local = address[..<at]
        return (foldingLocalParts ? local.lowercased() : String(local)) + "@" + address[address.index(after: at)...].lowercased()
    }

    mutating func add(_ base: String) {
        isEmpty = false
        let constraint = base.hasPrefix("@") ? base.dropFirst() : Substring(base)
        if let mailbox = mailbox(constraint) {
            mailboxes.insert(mailbox)
        } else if constraint.hasPrefix(".") {
            domains.insert(constraint.lowercased())
        } else {
            hosts.insert(constraint.lowercased())
        }
    }

    func allows(_ address: String) -> Bool { isEmpty || matches(address) }

    /// `address` lies within one of the bases.
    func matches(_ address: String) -> Bool {
        if isEmpty { return false }
        guard let at = address.lastIndex(of: "@") else { return false }
        if let mailbox = mailbox(Substring(address)), mailboxes.contains(mailbox) { return true }
        let host = address[address.index(after: at)...].lowercased()
        if hosts.contains(host) { return true }
        var index = host.startIndex
        while let dot = host[index...].firstIndex(of: ".") {
            if domains.contains(String(host[dot...])) { return true }
            index = host.index(after: dot)
        }
        return false
    }
}

/// A directoryName base: its RDNs folded once (type and case- and space-folded value, in encoding order).
private struct DirectoryBase: Sendable {
    let rdns: [[FoldedValue]]

    struct FoldedValue: Hashable, Sendable {
        let oid: String
        let value: String
    }

    init(_ name: DistinguishedName) { rdns = Self.folded(name) }

    static func folded(_ name: DistinguishedName) -> [[FoldedValue]] {
        name.relativeNames.map { rdn in
            rdn.map { FoldedValue(oid: $0.oid, value: NameConstraintsChecker.fold($0.value)) }
        }
    }

    /// The base's RDNs are the first RDNs of `subject`.
    func isPrefix(of subject: [[FoldedValue]]) -> Bool {
        rdns.count <= subject.count && zip(subject, rdns).allSatisfy { $0 == $1 }
    }
}
