/// Writes a JSON document straight into UTF-8 bytes, member by member, with the layout and escapes of
/// ``JSONValue`` (which renders through it): two-space indentation or none, `/` and non-ASCII as they are, every
/// scalar that ``DisplayText/needsEscaping(_:)`` as a `\uNNNN` escape.
///
/// A caller that writes an object states its keys in the order ``JSONValue`` would sort them (by their UTF-8
/// bytes): the writer does not reorder, which is what makes it cheaper than building a ``JSONValue`` tree. The
/// command line's per-line documents are written this way.
package struct JSONWriter {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []
    /// Two-space indentation when true, none at all otherwise.
    private let pretty: Bool
    /// How many containers are open.
    private var level = 0
    /// The open container already has a member or element (the next one needs a comma).
    private var hasMembers = false
    /// A key was written and its value is next.
    private var afterKey = false

    /// An empty document; `pretty` chooses the indented form.
    package init(pretty: Bool, capacity: Int = 1_024) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    /// The document followed by a newline, as ``JSONValue/rendered`` and ``JSONValue/compact`` end.
    package mutating func finishedText() -> String {
        bytes.append(0x0A)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Containers

    /// Opens an object.
    package mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// Closes the object opened last: `{}` when it has no member.
    package mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Opens an array.
    package mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// Closes the array opened last: `[]` when it has no element.
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    /// The name of the next member of the open object, any text (escaped as a string is); its value is written next.
    package mutating func key(named name: String) {
        memberBreak()
        writeString(name)
        keySeparator()
    }

    /// A key known to be printable ASCII without `"` or `\` (a literal in the code): written as it is.
    package mutating func key(_ name: StaticString) {
        let text = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        assert(text.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }, "a key that needs escapes")
        memberBreak()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: text)
        bytes.append(UInt8(ascii: "\""))
        keySeparator()
    }

    // MARK: Values

    /// `null`.
    package mutating func null() {
        beforeValue()
        bytes.append(contentsOf: "null".utf8)
        hasMembers = true
    }

    /// `true` or `false`.
    package mutating func bool(_ value: Bool) {
        beforeValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        hasMembers = true
    }

    /// A whole number in decimal.
    package mutating func int(_ value: Int) {
        beforeValue()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[start...])
        }
        hasMembers = true
    }

    /// A string, escaped as ``JSONValue`` escapes it.
    package mutating func string(_ value: String) {
        beforeValue()
        writeString(value)
        hasMembers = true
    }

    /// A string or `null`.
    package mutating func optional(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// An array of strings.
    package mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    /// A string of lowercase hexadecimal digits, two per byte.
    package mutating func hex(_ value: [UInt8]) {
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        for byte in value {
            bytes.append(Self.hexDigit(byte >> 4))
            bytes.append(Self.hexDigit(byte & 0x0F))
        }
        bytes.append(UInt8(ascii: "\""))
        hasMembers = true
    }

    /// A value tree, its object members in sorted order.
    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .int(let number): int(number)
        case .string(let text): string(text)
        case .array(let values):
            beginArray()
            for element in values { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                key(named: member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    // MARK: Layout

    private mutating func open(_ bracket: UInt8) {
        beforeValue()
        bytes.append(bracket)
        level += 1
        hasMembers = false
    }

    private mutating func close(_ bracket: UInt8) {
        level -= 1
        if hasMembers { lineBreak(level) }
        bytes.append(bracket)
        hasMembers = true
    }

    /// Before a member's key: the comma after the previous member and, when pretty-printing, the new line.
    private mutating func memberBreak() {
        if hasMembers { bytes.append(UInt8(ascii: ",")) }
        lineBreak(level)
    }

    private mutating func keySeparator() {
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    /// Before any value: nothing after a key or at the top; the separator of an array's elements otherwise.
    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
        } else if level > 0 {
            memberBreak()
        }
    }

    /// When pretty-printing: a newline and two spaces per `level`. Nothing in the compact form.
    private mutating func lineBreak(_ level: Int) {
        guard pretty else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    private mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Printable ASCII other than `"` and `\` is written as it is (no scalar needs an escape): one append.
        let plain = value.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            for byte in utf8 where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": bytes.append(contentsOf: "\\\"".utf8)
            case "\\": bytes.append(contentsOf: "\\\\".utf8)
            case "\n": bytes.append(contentsOf: "\\n".utf8)
            case "\r": bytes.append(contentsOf: "\\r".utf8)
            case "\t": bytes.append(contentsOf: "\\t".utf8)
            case _ where scalar.value >= 0x20 && scalar.value < 0x7F:
                bytes.append(UInt8(scalar.value))
            case _ where DisplayText.needsEscaping(scalar):
                // Outside the BMP (tag characters U+E00xx, ...): a UTF-16 surrogate pair, as JSON spells it.
                for unit in String(scalar).utf16 {
                    bytes.append(contentsOf: "\\u".utf8)
                    for shift in stride(from: 12, through: 0, by: -4) {
                        bytes.append(Self.hexDigit(UInt8((unit >> UInt16(shift)) & 0x0F)))
                    }
                }
            default: UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
