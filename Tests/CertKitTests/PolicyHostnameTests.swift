@testable import CertKit
import Testing

@Suite("Host name matching (SSL policy)")
struct PolicyHostnameTests {
    static let cases: [(pattern: String, host: String, matches: Bool)] = [
        ("leaf.example", "leaf.example", true),
        ("LEAF.Example", "leaf.EXAMPLE", true),
        ("leaf.example", "leaf.example.", true),
        ("leaf.example.", "leaf.example", false),  // a dNSName with a trailing dot is not a valid name
        ("*.example.com", "www.example.com", true),
        ("*.example.com", "WWW.EXAMPLE.COM", true),
        ("*.example.com", "a.b.example.com", false),
        ("*.example.com", "example.com", false),
        ("*.example.com", ".example.com", false),
        ("f*.example.com", "foo.example.com", false),
        ("*oo.example.com", "foo.example.com", false),
        ("www.*.com", "www.example.com", false),
        ("*.com", "example.com", false),
        ("*.*.example.com", "a.b.example.com", false),
        ("xn--bcher-kva.example", "xn--bcher-kva.example", true),
        ("*.xn--bcher-kva.example", "www.xn--bcher-kva.example", true),
        ("leaf.example", "other.example", false),
    ]

    @Test("DNS patterns", arguments: cases)
    func dns(_ entry: (pattern: String, host: String, matches: Bool)) {
        #expect(HostnameMatcher.matches(.dns(entry.host), subjectAltNames: [.dnsName(entry.pattern)]) == entry.matches)
    }

    @Test func ipAddressesCompareAsBytesAndNeverMatchDNSEntries() {
        let sans: [GeneralName] = [.ipAddress([192, 0, 2, 10]), .dnsName("192.0.2.11")]
        #expect(HostnameMatcher.matches(.ip([192, 0, 2, 10]), subjectAltNames: sans))
        #expect(!HostnameMatcher.matches(.ip([192, 0, 2, 11]), subjectAltNames: sans))
        let v6: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [1]
        #expect(HostnameMatcher.matches(.ip(v6), subjectAltNames: [.ipAddress(v6)]))
        #expect(!HostnameMatcher.matches(.ip(v6), subjectAltNames: [.ipAddress([192, 0, 2, 10])]))
    }

    @Test func wildcardsNeverMatchIPAddresses() {
        #expect(!HostnameMatcher.matches(.ip([1, 2, 3, 4]), subjectAltNames: [.dnsName("*.2.3.4")]))
    }

    @Test func noSubjectAltNameNeverMatches() {
        #expect(!HostnameMatcher.matches(.dns("leaf.example"), subjectAltNames: []))
    }
}

@Suite("Name constraints")
struct PolicyNameConstraintsTests {
    @Test func dnsSubtrees() {
        let constraints = NameConstraints(permitted: [.dnsName(".allowed.example")], excluded: [.dnsName("bad.allowed.example")])
        #expect(NameConstraintsChecker.isAllowed(.dnsName("www.allowed.example"), by: constraints))
        #expect(!NameConstraintsChecker.isAllowed(.dnsName("allowed.example"), by: constraints))
        #expect(!NameConstraintsChecker.isAllowed(.dnsName("leaf.other.example"), by: constraints))
        #expect(!NameConstraintsChecker.isAllowed(.dnsName("x.bad.allowed.example"), by: constraints))
        let plain = NameConstraints(permitted: [.dnsName("example.com")], excluded: [])
        #expect(NameConstraintsChecker.isAllowed(.dnsName("example.com"), by: plain))
        #expect(NameConstraintsChecker.isAllowed(.dnsName("a.example.com"), by: plain))
        #expect(!NameConstraintsChecker.isAllowed(.dnsName("badexample.com"), by: plain))
    }

    @Test func ipRanges() {
        let constraints = NameConstraints(permitted: [.ipAddress([10, 0, 0, 0, 255, 0, 0, 0])], excluded: [])
        #expect(NameConstraintsChecker.isAllowed(.ipAddress([10, 1, 2, 3]), by: constraints))
        #expect(!NameConstraintsChecker.isAllowed(.ipAddress([192, 0, 2, 1]), by: constraints))
        // iPAddress is one form across families: an IPv4-only permitted list forbids every IPv6 address.
        #expect(!NameConstraintsChecker.isAllowed(.ipAddress(Array(repeating: 1, count: 16)), by: constraints))
    }

    @Test func emailForms() {
        let host = NameConstraints(permitted: [.email("allowed.example")], excluded: [])
        #expect(NameConstraintsChecker.isAllowed(.email("x@allowed.example"), by: host))
        #expect(!NameConstraintsChecker.isAllowed(.email("x@other.example"), by: host))
        let mailbox = NameConstraints(permitted: [], excluded: [.email("boss@allowed.example")])
        #expect(!NameConstraintsChecker.isAllowed(.email("boss@allowed.example"), by: mailbox))
        #expect(NameConstraintsChecker.isAllowed(.email("staff@allowed.example"), by: mailbox))
        let domain = NameConstraints(permitted: [.email(".allowed.example")], excluded: [])
        #expect(NameConstraintsChecker.isAllowed(.email("x@mail.allowed.example"), by: domain))
        #expect(!NameConstraintsChecker.isAllowed(.email("x@allowed.example"), by: domain))
    }

    /// RFC 5280 §7.5: a mailbox's local part is case-sensitive, its host is not. A permitted mailbox holds only
    /// that exact local part; an excluded one also excludes its other spellings (the safe side). The compiled
    /// constraints decide the same.
    @Test("a mailbox constraint compares the local part exactly when permitting, case-insensitively when excluding")
    func mailboxLocalPartCase() {
        let permitted = NameConstraints(permitted: [.email("admin@example.com")], excluded: [])
        let excluded = NameConstraints(permitted: [], excluded: [.email("admin@example.com")])
        let cases: [(address: String, permitted: Bool, excluded: Bool)] = [
            ("admin@example.com", true, true), ("admin@EXAMPLE.com", true, true), ("Admin@example.com", false, true),
            ("ADMIN@Example.Com", false, true), ("admin2@example.com", false, false), ("admin@example.org", false, false),
        ]
        for item in cases {
            let name = GeneralName.email(item.address)
            #expect(NameConstraintsChecker.isAllowed(name, by: permitted) == item.permitted, "permitted \(item.address)")
            #expect(CompiledNameConstraints(permitted).isAllowed(name) == item.permitted, "compiled permitted \(item.address)")
            #expect(NameConstraintsChecker.isAllowed(name, by: excluded) == !item.excluded, "excluded \(item.address)")
            #expect(CompiledNameConstraints(excluded).isAllowed(name) == !item.excluded, "compiled excluded \(item.address)")
        }
        // A base written with an upper-case host is the same mailbox.
        let upperHost = NameConstraints(permitted: [.email("admin@Example.COM")], excluded: [])
        #expect(CompiledNameConstraints(upperHost).isAllowed(.email("admin@example.com")))
        #expect(!CompiledNameConstraints(upperHost).isAllowed(.email("ADMIN@example.com")))
    }

    /// The preferred name syntax has no trailing dot: such a dNSName is no valid name for the rules that refuse
    /// invalid names under a constraint (rfc5280.name-constraints-valid-names), though a peer name may end in one.
    @Test("a dNSName with a trailing dot is not a valid name; a host name may have one")
    func trailingDotDNSName() {
        #expect(!NameSyntax.isValid(.dnsName("www.example.com.")))
        #expect(!NameSyntax.isValid(.dnsName("*.example.com.")))
        #expect(NameSyntax.isValid(.dnsName("www.example.com")))
        #expect(NameSyntax.isHostName("www.example.com."))
    }

    @Test func otherFormsAreUnconstrained() {
        let constraints = NameConstraints(permitted: [.dnsName("allowed.example")], excluded: [])
        #expect(NameConstraintsChecker.isAllowed(.email("x@other.example"), by: constraints))
    }
}
