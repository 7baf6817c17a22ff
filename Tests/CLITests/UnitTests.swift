import CertKit
@testable import CertKitCLI
import Foundation
import Testing

@Suite("parsing and formatting")
struct UnitTests {
    @Test("ISO 8601 dates in the accepted forms")
    func dates() throws {
        let midnight = try #require(DateText.parse("2030-06-01"))
        #expect(ISO8601Text.timestamp(midnight) == "2030-06-01T00:00:00Z")
        #expect(DateText.parse("2030-06-01T00:00:00Z") == midnight)
        #expect(DateText.parse("2030-06-01T02:00:00+02:00") == midnight)
        #expect(DateText.parse("2030-05-31T19:00-0500") == midnight)
        #expect(DateText.parse("2030-06-01T00:00:00.250Z").map(ISO8601Text.timestamp) == "2030-06-01T00:00:00Z")
        for bad in ["", "2030", "2030-13-01", "2030-02-30", "2030-06-01T25:00:00Z", "2030-06-01Z", "tomorrow",
                    "2030-06-01T00:00:00+2"] {
            #expect(DateText.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("the argument parser")
    func parser() throws {
        let options: [OptionSpec] = [.flag("json", ""), .value("out", "F", ""), .value("pin", "P", repeatable: true, "")]
        let parsed = try ArgumentParser.parse(
            ["a", "--json", "--out=x", "--pin", "1", "--pin=2", "-", "--", "--out", "-h"], options: options, command: "t")
        #expect(parsed.positionals == ["a", "-", "--out", "-h"])
        #expect(parsed.has("json") && parsed.value("out") == "x" && parsed.all("pin") == ["1", "2"])
        #expect(!parsed.helpRequested)
        #expect(try ArgumentParser.parse(["x", "-h"], options: options, command: "t").helpRequested)
        for bad in [["--nope"], ["-x"], ["--out"], ["--json=1"], ["--json", "--json"], ["--out", "a", "--out", "b"]] {
            #expect(throws: CLIError.self) { try ArgumentParser.parse(bad, options: options, command: "t") }
        }
    }

    @Test("JSON rendering is deterministic and escaped")
    func json() {
        let value = JSONValue.object(["b": .array([.int(1), .null]), "a": .string("q\"\\\n\u{01}/é"), "c": .object([:])])
        #expect(value.rendered == "{\n  \"a\": \"q\\\"\\\\\\n\\u0001/é\",\n  \"b\": [\n    1,\n    null\n  ],\n  \"c\": {}\n}\n")
    }

    @Test("the batch parser's eight-byte scan finds exactly a quote, a backslash or a control byte")
    func specialBytes() throws {
        let plain = UInt64(0x4141_4141_4141_4141)
        #expect(!BatchJSON.hasSpecialByte(plain))
        for shift in stride(from: 0, to: 64, by: 8) {
            for value in 0...255 {
                let word = plain & ~(UInt64(0xFF) << UInt64(shift)) | UInt64(value) << UInt64(shift)
                let special = value < 0x20 || value == 0x22 || value == 0x5C
                #expect(BatchJSON.hasSpecialByte(word) == special, "byte \(value) at bit \(shift)")
            }
        }
        // Non-ASCII bytes next to each other are no special bytes; strings with escapes still parse.
        #expect(!BatchJSON.hasSpecialByte(0x80FF_C3A9_E282_AC7F))
        #expect(try BatchJSON.parse(Array(#"["0123456789abcdef\"0123456789\u0041\n", "abcdefghijklmnopq"]"#.utf8))
            == .array([.string("0123456789abcdef\"0123456789A\n"), .string("abcdefghijklmnopq")]))
        #expect(throws: BatchJSON.SyntaxError.self) { try BatchJSON.parse(Array("[\"0123456789abcdef\u{01}xyz\"]".utf8)) }
    }

    @Test("hex forms")
    func hex() {
        #expect(HexText.colonUppercase([0x0a, 0xff]) == "0A:FF")
        #expect(HexText.colonLowercase([0x0a, 0xff]) == "0a:ff")
    }
}
