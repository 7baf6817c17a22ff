@testable import CertKit
import Foundation
import Testing

/// The hand-written ISO 8601 dates against Foundation's format styles, and the JSON writer's layout and escapes
/// against the tree it writes for ``JSONValue``.
@Suite("ISO 8601 text and the JSON writer")
struct TextWritingTests {
    static let foundationTimestamp = Date.ISO8601FormatStyle()
    static let foundationDay = Date.ISO8601FormatStyle().year().month().day()

    static func date(_ text: String) throws -> Date {
        try #require(try? Date(text, strategy: Date.ISO8601FormatStyle()))
    }

    @Test("boundaries: UTCTime's and GeneralizedTime's years, leap days, the last second")
    func boundaries() throws {
        let cases = [
            "1950-01-01T00:00:00Z", "1949-12-31T23:59:59Z", "2049-12-31T23:59:59Z", "2050-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z", "2024-02-29T12:34:56Z", "2000-02-29T00:00:00Z", "2100-03-01T00:00:00Z",
            "1600-02-29T23:59:59Z", "1583-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "1970-01-01T00:00:00Z",
            "2030-06-01T00:00:59Z", "2038-01-19T03:14:08Z",
        ]
        for text in cases {
            let date = try Self.date(text)
            #expect(ISO8601Text.timestamp(date) == text)
            #expect(ISO8601Text.day(date) == String(text.prefix(10)))
        }
        // A fraction is dropped, before and after 1970 alike (the second rounded down, as Foundation does).
        #expect(ISO8601Text.timestamp(Date(timeIntervalSince1970: 59.999)) == "1970-01-01T00:00:59Z")
        #expect(ISO8601Text.timestamp(Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59Z")
        #expect(ISO8601Text.day(Date(timeIntervalSince1970: -0.25)) == "1969-12-31")
    }

    @Test("the same text as Foundation, inside the hand-written years and outside them")
    func sameAsFoundation() {
        var generator = SystemRandomNumberGenerator()
        var seconds: [Double] = [
            -12_212_553_600, -12_212_553_601, -12_219_292_800, -12_219_724_800, 253_402_300_799, 253_402_300_800,
            253_402_300_799.5, -62_135_596_800, 1e12, -1e12, 0, -1, 86_399, 86_400,
        ]
        for _ in 0..<2_000 { seconds.append(Double(Int64.random(in: -12_300_000_000...253_500_000_000, using: &generator))) }
        for _ in 0..<200 { seconds.append(Double.random(in: -3e9...3e9, using: &generator)) }
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            #expect(ISO8601Text.timestamp(date) == date.formatted(Self.foundationTimestamp), "\(value)")
            #expect(ISO8601Text.day(date) == date.formatted(Self.foundationDay), "\(value)")
        }
    }

    @Test("JSON strings: quotes, backslash, controls, DEL, C1, bidi, line separators, non-BMP tags; / and non-ASCII as they are")
    func escapes() {
        var writer = JSONWriter(pretty: false)
        writer.beginArray()
        writer.string("a/b é 漢 😀")
        writer.string("\"\\\n\r\t\u{0}\u{8}\u{C}\u{1F}\u{7F}\u{80}\u{9F}\u{200E}\u{202E}\u{2028}\u{2029}\u{FEFF}\u{E0041}")
        writer.endArray()
        #expect(writer.finishedText() == "[\"a/b é 漢 😀\",\"\\\"\\\\\\n\\r\\t\\u0000\\u0008\\u000c\\u001f\\u007f\\u0080\\u009f"
            + "\\u200e\\u202e\\u2028\\u2029\\ufeff\\udb40\\udc41\"]\n")
    }

    @Test("integers, keys that need escapes, empty containers, nesting: the bytes of the sorted tree")
    func layout() {
        let tree = JSONValue.object([
            "z": .array([.int(0), .int(-1), .int(Int.max), .int(Int.min), .null, .bool(true), .bool(false)]),
            "a\"b": .object([:]), "é": .array([]), "/": .string(""),
            "m": .object(["y": .array([.object(["k": .strings(["v"])])]), "x": .optional(nil)]),
        ])
        for pretty in [true, false] {
            var writer = JSONWriter(pretty: pretty)
            writer.beginObject()
            writer.key("/")
            writer.string("")
            writer.key(named: "a\"b")
            writer.beginObject()
            writer.endObject()
            writer.key("m")
            writer.beginObject()
            writer.key("x")
            writer.optional(nil)
            writer.key("y")
            writer.beginArray()
            writer.beginObject()
            writer.key("k")
            writer.strings(["v"])
            writer.endObject()
            writer.endArray()
            writer.endObject()
            writer.key("z")
            writer.beginArray()
            for number in [0, -1, Int.max, Int.min] { writer.int(number) }
            writer.null()
            writer.bool(true)
            writer.bool(false)
            writer.endArray()
            writer.key(named: "é")
            writer.beginArray()
            writer.endArray()
            writer.endObject()
            #expect(writer.finishedText() == (pretty ? tree.rendered : tree.compact))
        }
        #expect(tree.compact == "{\"/\":\"\",\"a\\\"b\":{},\"m\":{\"x\":null,\"y\":[{\"k\":[\"v\"]}]},"
            + "\"z\":[0,-1,9223372036854775807,-9223372036854775808,null,true,false],\"é\":[]}\n")
        var hex = JSONWriter(pretty: false)
        hex.hex([0x00, 0x0F, 0xA0, 0xFF])
        #expect(hex.finishedText() == "\"000fa0ff\"\n")
    }
}
