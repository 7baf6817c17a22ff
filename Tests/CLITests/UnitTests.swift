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

    @Test("hex forms")
    func hex() {
        #expect(HexText.colonUppercase([0x0a, 0xff]) == "0A:FF")
        #expect(HexText.colonLowercase([0x0a, 0xff]) == "0a:ff")
    }
}
