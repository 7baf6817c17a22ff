@testable import CertKit
import Testing

/// The display escaping rule for names from certificates (terminal injection).
@Suite struct EncodingDisplayTextTests {
    /// The bidi controls the rule must catch, by name.
    static let bidiControls: [UInt32] = [
        0x202A, 0x202B, 0x202C, 0x202D, 0x202E,  // LRE RLE PDF LRO RLO
        0x2066, 0x2067, 0x2068, 0x2069,  // LRI RLI FSI PDI
        0x200E, 0x200F, 0x061C,  // LRM RLM ALM
    ]

    @Test func escapesControlsBidiAndFormatCharacters() {
        #expect(DisplayText.escaped("good.example.com") == "good.example.com")
        #expect(DisplayText.escaped("a\\b") == "a\\\\b")
        #expect(DisplayText.escaped("evil\u{1B}[2Kgood") == "evil\\x1b[2Kgood")
        #expect(DisplayText.escaped("\u{0}\t\n\r\u{7F}") == "\\x00\\x09\\x0a\\x0d\\x7f")
        #expect(DisplayText.escaped("\u{80}\u{9B}\u{9F}") == "\\x80\\x9b\\x9f")
        #expect(DisplayText.escaped("moc.live\u{202E}good") == "moc.live\\u{202e}good")
        #expect(DisplayText.escaped("\u{2066}x\u{2069}") == "\\u{2066}x\\u{2069}")
        #expect(DisplayText.escaped("\u{200B}\u{FEFF}\u{AD}\u{2028}\u{2029}")
            == "\\u{200b}\\u{feff}\\u{00ad}\\u{2028}\\u{2029}")
        #expect(DisplayText.escaped("tag\u{E0041}") == "tag\\u{e0041}")
        // Ordinary non-ASCII text is kept.
        #expect(DisplayText.escaped("Zoë Müller 日本 ü\u{A0}") == "Zoë Müller 日本 ü\u{A0}")
    }

    @Test func theEscapedFormIsUnambiguous() {
        // The text `\x1b` and a real ESC never render the same.
        #expect(DisplayText.escaped("\\x1b") != DisplayText.escaped("\u{1B}"))
        #expect(DisplayText.escaped("\\u{202e}") != DisplayText.escaped("\u{202E}"))
    }

    @Test func everyBidiControlIsEscaped() {
        for value in Self.bidiControls {
            let scalar = Unicode.Scalar(value)!
            #expect(DisplayText.needsEscaping(scalar), "U+\(String(value, radix: 16))")
        }
    }

    @Test func noEscapedOutputHoldsAScalarThatNeedsEscaping() {
        let ranges: [ClosedRange<UInt32>] = [0...0x3100, 0xFE00...0xFFFF, 0x1D170...0x1D180, 0xE0000...0xE0080]
        var leaks: [String] = []
        var escapedCount = 0
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let escaped = DisplayText.escaped("a" + String(scalar) + "b")
                if escaped.unicodeScalars.contains(where: DisplayText.needsEscaping) { leaks.append(String(value, radix: 16)) }
                if escaped.count > 3 { escapedCount += 1 }
            }
        }
        #expect(leaks.isEmpty)
        // C0 + DEL + C1 (66), the backslash, and the format characters of these ranges.
        #expect(escapedCount > 66 + 1 + Self.bidiControls.count)
    }

    @Test func rfc4514NamesEscapeTheSameScalarsAsHexPairs() throws {
        let name = try EncodingNameAndAddressTests.name([
            (EncodingNameAndAddressTests.cn, DERTag.utf8String, "good\u{202E}moc\u{1B}[0m"),
            (EncodingNameAndAddressTests.o, DERTag.utf8String, "Org\u{9B}31m\u{2066}x\u{2069}"),
        ])
        #expect(name.description == "O=Org\\C2\\9B31m\\E2\\81\\A6x\\E2\\81\\A9,CN=good\\E2\\80\\AEmoc\\1B[0m")
        #expect(!name.description.unicodeScalars.contains(where: DisplayText.needsEscaping))
    }

    @Test func aHexDumpValueMustBeHex() {
        // A value that claims to be a `#` hex dump but is not is escaped like any other text.
        let attribute = DistinguishedName.Attribute(oid: "2.5.4.3", valueTag: 0x04, value: "#\u{1B}[2K")
        let name = DistinguishedName(derEncoded: [], relativeNames: [[attribute]])
        #expect(name.description == "CN=\\#\\1B[2K")
        let dump = DistinguishedName.Attribute(oid: "2.5.4.3", valueTag: 0x04, value: "#0401ff")
        #expect(DistinguishedName(derEncoded: [], relativeNames: [[dump]]).description == "CN=#0401ff")
    }

    @Test func generalNameDescriptionsAreSafeToPrint() throws {
        #expect(GeneralName.dnsName("evil\u{1B}[2K\u{1B}[1Ggood.example.com").description
            == "DNS:evil\\x1b[2K\\x1b[1Ggood.example.com")
        #expect(GeneralName.uri("https://a/\u{1B}]8;;x\u{7}").description == "URI:https://a/\\x1b]8;;x\\x07")
        #expect(GeneralName.email("u\u{7F}@b").description == "email:u\\x7f@b")
        #expect(GeneralName.dnsName("back\\slash").description == "DNS:back\\\\slash")
        let directory = try EncodingNameAndAddressTests.name([(EncodingNameAndAddressTests.cn, DERTag.utf8String, "d\u{202E}n")])
        #expect(GeneralName.directoryName(directory).description == "DirName:CN=d\\E2\\80\\AEn")
        #expect(GeneralName.ipAddress([192, 0, 2, 1]).description == "IP:192.0.2.1")
    }
}
