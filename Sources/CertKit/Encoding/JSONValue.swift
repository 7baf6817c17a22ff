/// A JSON value for the command line's documents and the exceptions file (``TrustExceptions/jsonData()``), written
/// by ``JSONWriter``.
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
        var writer = JSONWriter(pretty: true)
        writer.value(self)
        return writer.finishedText()
    }

    /// The document on one line, without any space, followed by a newline.
    package var compact: String {
        var writer = JSONWriter(pretty: false)
        writer.value(self)
        return writer.finishedText()
    }
}
