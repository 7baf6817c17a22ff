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
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    /// The document on one line, without any space, followed by a newline.
    package var compact: String {
        var out = ""
        write(to: &out, indent: nil)
        out += "\n"
        return out
    }

    /// Writes the value; `indent` is the nesting level when pretty-printing, nil for the compact form.
    private func write(to out: inout String, indent: Int?) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let values):
            guard !values.isEmpty else { out += "[]"; return }
            out += "[" + Self.lineBreak(indent)
            for (position, value) in values.enumerated() {
                out += Self.padding(indent.map { $0 + 1 })
                value.write(to: &out, indent: indent.map { $0 + 1 })
                out += (position == values.count - 1 ? "" : ",") + Self.lineBreak(indent)
            }
            out += Self.padding(indent) + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{" + Self.lineBreak(indent)
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (position, key) in keys.enumerated() {
                out += Self.padding(indent.map { $0 + 1 })
                Self.writeString(key, to: &out)
                out += indent == nil ? ":" : ": "
                members[key]!.write(to: &out, indent: indent.map { $0 + 1 })
                out += (position == keys.count - 1 ? "" : ",") + Self.lineBreak(indent)
            }
            out += Self.padding(indent) + "}"
        }
    }

    private static func padding(_ level: Int?) -> String { String(repeating: "  ", count: level ?? 0) }

    private static func lineBreak(_ indent: Int?) -> String { indent == nil ? "" : "\n" }

    private static func writeString(_ value: String, to out: inout String) {
        // Printable ASCII other than `"` and `\` is written as it is (no scalar needs an escape): one append.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            out += "\""
            out += value
            out += "\""
            return
        }
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where DisplayText.needsEscaping(scalar):
                // Outside the BMP (tag characters U+E00xx, ...): a UTF-16 surrogate pair, as JSON spells it.
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
