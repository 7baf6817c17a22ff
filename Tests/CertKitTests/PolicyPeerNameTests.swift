@testable import CertKit
import Testing

/// Peer names that look like IP addresses: only canonical literals are IP peer names, and
/// nothing IP-looking is ever matched against a dNSName.
@Suite("Peer names: IP-looking hosts")
struct PolicyPeerNameTests {
    /// Texts other parsers (URL parsers, inet_aton) read as IP addresses, each with the reason.
    static let ipLooking: [(text: String, form: String)] = [
        ("1.2.3.4.", "trailing dot"),
        ("01.2.3.4", "leading zero (octal to inet_aton)"),
        ("1.2.3.04", "leading zero in the last part"),
        ("0177.0.0.1", "octal"),
        ("0x7f.1", "hex first part, shortened"),
        ("0x7f.0.0.1", "hex first part"),
        ("127.0.0.0x1", "hex last part"),
        ("127.1", "shortened"),
        ("2130706433", "one 32-bit number"),
        ("1.2.3.4.5", "five parts, last all digits"),
        ("256.1.1.1", "octet out of range"),
        ("host.example.123", "last label all digits (WHATWG ends-in-a-number)"),
        ("host.example.0x", "last label 0x (WHATWG: the number 0)"),
        ("host.example.0X1F", "last label hex, upper case"),
        ("host.example.0x1f.", "last label hex, trailing dot"),
        ("[::1]", "bracketed IPv6"),
        ("[2001:db8::1]", "bracketed IPv6"),
        ("fe80::1%eth0", "IPv6 with a zone id"),
        ("fe80::1%25eth0", "IPv6 with a URL-encoded zone id"),
        ("::1.", "IPv6 with a trailing dot"),
        ("1::2::3", "malformed IPv6"),
    ]

    @Test("IP-looking text is a DNS peer name that matches no SAN", arguments: ipLooking)
    func ipLookingHostsMatchNothing(_ entry: (text: String, form: String)) {
        #expect(PeerName.parse(entry.text) == .dns(entry.text), "\(entry.form)")
        #expect(IPAddressParsing.looksLikeIPLiteral(entry.text), "\(entry.form)")
        #expect(!HostnameMatcher.isHostName(entry.text), "\(entry.form)")
        let trimmed = entry.text.hasSuffix(".") ? String(entry.text.dropLast()) : entry.text
        let labels = trimmed.split(separator: ".")
        // SANs that would match the text if it were compared as a DNS name: itself, and a wildcard over it.
        var sans: [GeneralName] = [.dnsName(entry.text), .dnsName(trimmed)]
        if labels.count >= 3 { sans.append(.dnsName("*." + labels.dropFirst().joined(separator: "."))) }
        sans.append(.ipAddress([1, 2, 3, 4]))
        sans.append(.ipAddress([127, 0, 0, 1]))
        sans.append(.ipAddress(Array(repeating: 0, count: 15) + [1]))
        #expect(!HostnameMatcher.matches(PeerName.parse(entry.text), subjectAltNames: sans), "\(entry.form)")
    }

    @Test func theReportedAttack() {
        let wildcard: [GeneralName] = [.dnsName("*.2.3.4")]
        for host in ["1.2.3.4.", "01.2.3.4", "1.2.3.4"] {
            #expect(!HostnameMatcher.matches(PeerName.parse(host), subjectAltNames: wildcard), "\(host)")
        }
    }

    @Test func canonicalLiteralsAreIPPeerNames() {
        #expect(PeerName.parse("1.2.3.4") == .ip([1, 2, 3, 4]))
        #expect(PeerName.parse("0.0.0.0") == .ip([0, 0, 0, 0]))
        #expect(PeerName.parse("255.255.255.255") == .ip([255, 255, 255, 255]))
        #expect(PeerName.parse("2001:db8::1") == .ip([0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [1]))
        #expect(PeerName.parse("2001:DB8::1") == PeerName.parse("2001:db8::1"))
        #expect(PeerName.parse("::ffff:192.0.2.1") == .ip(Array(repeating: 0, count: 10) + [0xFF, 0xFF, 192, 0, 2, 1]))
        // An IP peer name is matched against iPAddress entries of the same bytes only.
        #expect(HostnameMatcher.matches(PeerName.parse("1.2.3.4"), subjectAltNames: [.ipAddress([1, 2, 3, 4])]))
        #expect(!HostnameMatcher.matches(PeerName.parse("1.2.3.4"), subjectAltNames: [.dnsName("1.2.3.4")]))
        let mapped = PeerName.parse("::ffff:1.2.3.4")
        #expect(!HostnameMatcher.matches(mapped, subjectAltNames: [.ipAddress([1, 2, 3, 4])]))
    }

    @Test func aCanonicalLiteralGivenAsDNSMatchesNothing() {
        // API callers that build .dns("1.2.3.4") themselves do not get a DNS comparison either.
        #expect(!HostnameMatcher.matches(.dns("1.2.3.4"), subjectAltNames: [.dnsName("1.2.3.4"), .ipAddress([1, 2, 3, 4])]))
        #expect(!HostnameMatcher.matches(.dns("::1"), subjectAltNames: [.dnsName("::1")]))
    }

    @Test func hostNamesWithDigitsStillMatch() {
        let cases: [(host: String, pattern: String)] = [
            ("1.example.com", "*.example.com"),
            ("123.example", "123.example"),
            ("host.123abc", "host.123abc"),
            ("host.0xg", "host.0xg"),
            ("10.0.0.1.nip.example", "*.0.0.1.nip.example"),
            ("x1", "x1"),
            ("leaf.example.", "leaf.example"),
        ]
        for (host, pattern) in cases {
            #expect(HostnameMatcher.isHostName(host), "\(host)")
            #expect(PeerName.parse(host) == .dns(host), "\(host)")
            #expect(HostnameMatcher.matches(.dns(host), subjectAltNames: [.dnsName(pattern)]), "\(host) vs \(pattern)")
        }
    }

    @Test func emptyLabelsAreNotHostNames() {
        for host in ["", ".", "a..b", ".a.b", "a.b..", "..a"] {
            #expect(!HostnameMatcher.isHostName(host), "\(host)")
            #expect(!HostnameMatcher.matches(.dns(host), subjectAltNames: [.dnsName(host)]), "\(host)")
        }
    }
}
