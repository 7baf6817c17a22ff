/// The one rule for showing text that came from a certificate (or from any other untrusted input) to a person:
/// on a terminal, in a log, in an error message.
///
/// A certificate can carry any bytes in its names. Printed raw, control characters (ESC sequences, a C1 `CSI`)
/// drive the terminal: they can erase or rewrite what was printed before them, so `evil.com` hides behind
/// `good.example.com`. Unicode format characters do the same visually without a terminal: a right-to-left
/// override (U+202E) reverses the text after it. So every such scalar is escaped, and so is the backslash,
/// which makes the escaped text unambiguous: `\x1b` in the output can only come from an ESC, never from the
/// four characters `\`, `x`, `1`, `b` (those print as `\\x1b`).
///
/// Scalars that are escaped (``needsEscaping(_:)``):
/// - C0 controls U+0000–U+001F (including tab and newline), DEL U+007F and C1 controls U+0080–U+009F;
/// - every Unicode format character (general category Cf): the bidi embeddings and overrides U+202A–U+202E,
///   the isolates U+2066–U+2069, the marks U+200E, U+200F and U+061C, zero-width characters U+200B–U+200D,
///   U+2060, U+FEFF, the soft hyphen U+00AD, tag characters U+E0000–U+E007F, ...;
/// - the line and paragraph separators U+2028 and U+2029.
///
/// Two renderings share that rule: ``escaped(_:)`` for free text, and the RFC 4514 string of a distinguished
/// name (``DistinguishedName/description``), which writes the same scalars as RFC 4514 hex pairs of their
/// UTF-8 bytes (`\1B`, `\E2\80\AE`) so that the name stays valid RFC 4514.
package enum DisplayText {
    /// True when `scalar` must not be shown raw (see the type's documentation for the list).
    package static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if value < 0xA0 { return false }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// `text` safe to print: `\` becomes `\\`; C0 controls, DEL and C1 controls become `\xNN` (two lowercase
    /// hex digits); every other scalar that ``needsEscaping(_:)`` becomes `\u{NNNN}` (lowercase hex, at least
    /// four digits). Everything else, including other non-ASCII text, is kept as it is.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || needsEscaping($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                out += "\\\\"
            } else if !needsEscaping(scalar) {
                out.unicodeScalars.append(scalar)
            } else if scalar.value <= 0x9F {
                out += "\\x" + hex(scalar.value, digits: 2)
            } else {
                out += "\\u{" + hex(scalar.value, digits: 4) + "}"
            }
        }
        return out
    }

    /// `value` in lowercase hex, left-padded with zeros to `digits`.
    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
