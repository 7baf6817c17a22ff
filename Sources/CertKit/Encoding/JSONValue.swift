/// certkit's one JSON writer: the command line's documents and the exceptions file (``TrustExceptions/jsonData()``).
///
/// A JSON value with a deterministic rendering: object keys sorted by their UTF-8 bytes, two-space indentation
/// (``rendered``) or none at all (``compact``), `/` and non-ASCII left as they are. Every scalar that ``DisplayText/needsEscaping(_:)`` (C0/C1 controls,
/// DEL, bidi and other format characters, U+2028/U+2029) is written as a `\uNNNN` escape (lowercase hex), so
/// the document holds no raw control or bidi character while the strings keep their exact values.
/// The same value always renders the same bytes.
package indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// `.string` or `.null`.
    package static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// An array of strings.
    package static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    /// The pretty-printed document followed by a newline.
    package var rendered: String {
        var out: [UInt8] = []
        write(to: &out, indent: 0)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    /// The document on one line, without any space, followed by a newline.
    package var compact: String {
        var out: [UInt8] = []
        out.reserveCapacity(1_024)
        write(to: &out, indent: nil)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes the value as UTF-8; `indent` is the nesting level when pretty-printing, nil for the compact form.
    private func write(to out: inout [UInt8], indent: Int?) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): out.append(contentsOf: String(value).utf8)
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let values):
            guard !values.isEmpty else { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (position, value) in values.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                Self.lineBreak(indent.map { $0 + 1 }, to: &out)
                value.write(to: &out, indent: indent.map { $0 + 1 })
            }
            Self.lineBreak(indent, to: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (position, member) in sorted.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                Self.lineBreak(indent.map { $0 + 1 }, to: &out)
                Self.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(UInt8(ascii: " ")) }
                member.value.write(to: &out, indent: indent.map { $0 + 1 })
            }
            Self.lineBreak(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// When pretty-printing: a newline and two spaces per `level`. Nothing in the compact form.
    private static func lineBreak(_ level: Int?, to out: inout [UInt8]) {
        guard let level else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    private static func writeString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Printable ASCII other than `"` and `\` is written as it is (no scalar needs an escape): one append.
        var contiguous = value
        let plain = contiguous.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain {
            out.append(UInt8(ascii: "\""))
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: "\\\"".utf8)
            case "\\": out.append(contentsOf: "\\\\".utf8)
            case "\n": out.append(contentsOf: "\\n".utf8)
            case "\r": out.append(contentsOf: "\\r".utf8)
            case "\t": out.append(contentsOf: "\\t".utf8)
            case _ where DisplayText.needsEscaping(scalar):
                // Outside the BMP (tag characters U+E00xx, ...): a UTF-16 surrogate pair, as JSON spells it.
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                }
            default: UTF8.encode(scalar) { out.append($0) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
