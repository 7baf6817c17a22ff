@testable import CertKit
import Testing

/// The byte-wise readings of host text (all-ASCII input) decide exactly as the `Character` readings they replace
/// on the hot path: `HostnameMatcher.isHostName`, `IPAddressParsing.looksLikeIPLiteral` and `IPAddressParsing.ipv4`.
@Suite("host text: byte-wise fast paths agree with the Character paths")
struct HostTextFastPathTests {
    typealias Generator = LimitsAlgorithmTests.Generator

    /// Pieces that meet every branch: dots, digits, hex, `0x`, IP punctuation, CR LF (one `Character`, two bytes),
    /// and non-ASCII text (combining marks that swallow a dot, a Kelvin sign, a non-ASCII digit) for the fallback.
    static let pieces = [
        "a", "b", "f", "F", "x", "X", "g", "z", "0", "1", "2", "5", "9", "25", "255", "256", "00", "0x", "0X", ".",
        ".", ".", "..", ":", "[", "]", "%", "-", "*", "_", " ", "\r\n", "é", "e\u{301}", ".\u{301}", "\u{212A}", "٣",
    ]

    static func text(_ random: inout Generator) -> String {
        (0..<Int(random.next() % 10)).map { _ in LimitsAlgorithmTests.pick(pieces, &random) }.joined()
    }

    /// Dotted groups of digits, mostly ASCII: three to five groups, leading zeros, values past 255, a stray byte.
    static func quad(_ random: inout Generator) -> String {
        let groups = (0..<(3 + Int(random.next() % 3))).map { _ -> String in
            let group = LimitsAlgorithmTests.pick(["0", "1", "00", "01", "7", "10", "99", "100", "199", "255", "256", "300", "999", "1000", ""], &random)
            return random.next() % 20 == 0 ? group + LimitsAlgorithmTests.pick(["a", " ", "٣", "+", "\r\n"], &random) : group
        }
        let text = groups.joined(separator: ".")
        return random.next() % 10 == 0 ? text + "." : text
    }

    @Test("50,000 generated texts: the same answers either way")
    func generatedTexts() {
        var random = Generator(state: 0x486F_7374)
        var ascii = 0, valid = 0
        for round in 0..<50_000 {
            let text = round % 2 == 0 ? Self.text(&random) : Self.quad(&random)
            if text.utf8.allSatisfy({ $0 < 0x80 }) { ascii += 1 }
            #expect(HostnameMatcher.isHostName(text) == HostnameMatcher.isHostName(characters: text), "\(text.debugDescription)")
            #expect(IPAddressParsing.looksLikeIPLiteral(text) == IPAddressParsing.looksLikeIPLiteral(characters: text),
                    "\(text.debugDescription)")
            let quad = IPAddressParsing.ipv4(Substring(text))
            if quad != nil { valid += 1 }
            #expect(quad == IPAddressParsing.ipv4(characters: Substring(text)), "\(text.debugDescription)")
        }
        #expect(ascii > 20_000 && valid > 200, "the corpus reaches the fast paths and valid addresses")
    }

    @Test("known answers")
    func knownAnswers() {
        #expect(IPAddressParsing.ipv4("0.0.0.0") == [0, 0, 0, 0])
        #expect(IPAddressParsing.ipv4("255.10.0.1") == [255, 10, 0, 1])
        for bad in ["256.1.1.1", "01.2.3.4", "1.2.3", "1.2.3.4.", "1..2.3", "1.2.3.4.5", "1.2.3.-4", "1.2.3.٣", ""] {
            #expect(IPAddressParsing.ipv4(Substring(bad)) == nil, "\(bad)")
        }
        for literal in ["1.2.3.4.", "0x7f.1", "example.0X1f", "example.10", "[::1]", "a%b", "127.1", "0x"] {
            #expect(IPAddressParsing.looksLikeIPLiteral(literal), "\(literal)")
        }
        for name in ["example.com", "example.0x1g", "a.b.", "x.0xg", "..", ""] {
            #expect(!IPAddressParsing.looksLikeIPLiteral(name), "\(name)")
        }
        for host in ["example.com", "example.com.", "a-b.example"] { #expect(HostnameMatcher.isHostName(host), "\(host)") }
        for host in ["", ".", "a..b", ".a", "a.b..", "1.2.3.4", "example.0x10", "[::1]"] {
            #expect(!HostnameMatcher.isHostName(host), "\(host)")
        }
    }
}
