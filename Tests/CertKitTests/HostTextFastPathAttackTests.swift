@testable import CertKit
import Foundation
import Testing

/// Every short text over an alphabet that meets each branch of the byte-wise host readings, and slices of larger
/// strings, read both ways (`HostnameMatcher.isHostName`, `IPAddressParsing.looksLikeIPLiteral`,
/// `IPAddressParsing.ipv4` against their `Character` versions).
@Suite("host text: exhaustive short texts and slices agree with the Character paths")
struct HostTextFastPathAttackTests {
    /// Dots, digits, hex, `x`, IP punctuation, CR, LF and CR LF (one `Character`), one non-ASCII scalar.
    static let alphabet = ["0", "1", "2", "5", "9", "x", "X", "f", "g", ".", ":", "%", "\r", "\n", "\u{301}"]

    static func agree(_ text: String) -> Bool {
        HostnameMatcher.isHostName(text) == HostnameMatcher.isHostName(characters: text)
            && IPAddressParsing.looksLikeIPLiteral(text) == IPAddressParsing.looksLikeIPLiteral(characters: text)
            && IPAddressParsing.ipv4(Substring(text)) == IPAddressParsing.ipv4(characters: Substring(text))
    }

    @Test("every text of up to four pieces of the alphabet")
    func exhaustive() {
        var texts = [""]
        var frontier = [""]
        for _ in 0..<4 {
            frontier = frontier.flatMap { prefix in Self.alphabet.map { prefix + $0 } }
            texts += frontier
        }
        #expect(texts.count == 1 + 15 + 225 + 3375 + 50625)
        var disagreements: [String] = []
        for text in texts where !Self.agree(text) { disagreements.append(text.debugDescription) }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    @Test("long, odd and known texts", arguments: [
        "", ".", "..", "...", "0", "00", "0x", "0X", "0x.", "a.0x", "a.0xG", "a.0x0.", "a.0x0..", "x0", "a.x0",
        "1.2.3.4", "1.2.3.4.", "01.2.3.4", "1.2.3.04", "255.255.255.255", "256.0.0.0", "1.2.3.4.5", "1.2.3",
        "999.1.1.1", "1000.1.1.1", "0.0.0.0", "00.0.0.0", "1.2.3.\r\n", "1.2.3.4\r\n", "a.b\r\n", "a.b\r\n.",
        "\r\n", "\r\n.", ".\r\n", "a.\r\n1", "a.1\r\n", "example.com", "EXAMPLE.COM.", "a..b", "a.b..",
        String(repeating: "1", count: 400), String(repeating: "9", count: 400) + ".1.1.1",
        "1." + String(repeating: "0", count: 300) + ".1.1", String(repeating: "a.", count: 200) + "0x" + String(repeating: "f", count: 100),
        String(repeating: "a", count: 100) + ".com", "é.com", "e\u{301}.1", "1.2.3.4\u{301}", "1.2.3\u{301}.4", "1.2.3.\u{301}4",
        "\u{FEFF}1.2.3.4", "1.2.3.4\0", "\0", "a\0.b", "\u{212A}.0x1", "١.٢.٣.٤", "１.２.３.４", "0x7f.1", "a.0x",
    ])
    func known(_ text: String) {
        #expect(Self.agree(text), "\(text.debugDescription)")
    }

    @Test("slices of larger strings, including slices that cut a CR LF or a combining sequence")
    func slices() {
        let hosts = ["1.2.3.4", "10.0.0.255", "01.2.3.4", "a.b.c", "x.0x1f", "a.1", "1.2.3.4.", "256.1.1.1"]
        let wrappers = [("", ""), ("9", "9"), (".", "."), ("\r\n", "\r\n"), ("\r", "\n"), ("é", "\u{301}"), ("long-prefix-to-leave-small-strings.", "")]
        var count = 0
        for host in hosts {
            for (before, after) in wrappers {
                let whole = before + host + after
                let scalars = whole.unicodeScalars
                // Every slice between scalar boundaries (including boundaries inside a Character).
                for start in scalars.indices {
                    for end in scalars.indices[start...] + [scalars.endIndex] where start <= end {
                        let slice = whole[start..<end]
                        #expect(IPAddressParsing.ipv4(slice) == IPAddressParsing.ipv4(characters: slice),
                                "\(whole.debugDescription) \(String(slice).debugDescription)")
                        let copy = String(slice)
                        #expect(Self.agree(copy), "\(copy.debugDescription)")
                        count += 1
                    }
                }
            }
        }
        #expect(count > 1000)
    }

    @Test("strings from Foundation and from decoded bytes read the same")
    func otherStorage() {
        for text in ["1.2.3.4", "a.0x1", "example.com.", "a..b", String(repeating: "a.", count: 40) + "com"] {
            let fromNS = String(NSString(string: text))
            let decoded = String(decoding: Array(text.utf8), as: UTF8.self)
            let fromData = String(data: Data(text.utf8), encoding: .utf8) ?? ""
            for variant in [fromNS, decoded, fromData] {
                #expect(Self.agree(variant), "\(variant.debugDescription)")
                #expect(HostnameMatcher.isHostName(variant) == HostnameMatcher.isHostName(text))
            }
        }
    }
}
