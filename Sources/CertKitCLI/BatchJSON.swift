import CertKit

/// The JSON of one `--batch` input line: a small strict parser (RFC 8259) that keeps what the batch needs to know
/// and Foundation's parser does not say: duplicate keys, and whether a number is a whole number.
indirect enum BatchJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number, as written; `integer` when it is a whole number that fits an `Int` (no fraction or exponent).
    case number(text: String, integer: Int?)
    case string(String)
    case array([BatchJSON])
    /// Members in the order written (keys are unique: a duplicate is a syntax error).
    case object([(key: String, value: BatchJSON)])

    static func == (lhs: BatchJSON, rhs: BatchJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a, _), .number(let b, _)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The deepest nesting accepted (a request is two levels deep).
    static let maxDepth = 16

    /// A parse failure: what is wrong and the byte offset where.
    struct SyntaxError: Error, Equatable {
        var problem: String
        var offset: Int
    }

    /// Parses `bytes` as one JSON value, with optional surrounding whitespace.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> BatchJSON { try parse(bytes[...]) }

    /// Parses `bytes` as one JSON value, with optional surrounding whitespace.
    static func parse(_ bytes: ArraySlice<UInt8>) throws(SyntaxError) -> BatchJSON {
        try bytes.withUnsafeBufferPointer { buffer throws(SyntaxError) -> BatchJSON in
            var parser = Parser(bytes: buffer)
            parser.skipWhitespace()
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.position == buffer.count else { throw parser.error("unexpected text after the value") }
            return value
        }
    }

    /// True when one of the eight bytes of `word` is `"`, `\\` or below 0x20 (exact: the bit tricks for "has a
    /// zero byte" and "has a byte below n" give no false answer for n ≤ 128).
    static func hasSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        return hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
            || (word &- ones &* 0x20) & ~word & highs != 0
    }

    /// A short name of the value's type, for messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func error(_ problem: String) -> SyntaxError { SyntaxError(problem: problem, offset: position) }

        mutating func skipWhitespace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        mutating func literal(_ text: StaticString, _ value: BatchJSON) throws(SyntaxError) -> BatchJSON {
            let count = text.utf8CodeUnitCount
            guard position + count <= bytes.count else { throw error("unexpected end of line") }
            for index in 0..<count where bytes[position + index] != text.utf8Start[index] {
                throw error("unexpected character")
            }
            position += count
            return value
        }

        mutating func value(depth: Int) throws(SyntaxError) -> BatchJSON {
            guard depth < BatchJSON.maxDepth else { throw error("nested deeper than \(BatchJSON.maxDepth) levels") }
            guard position < bytes.count else { throw error("unexpected end of line") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character")
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> BatchJSON {
            position += 1
            var members: [(key: String, value: BatchJSON)] = []
            var keys = Set<String>()
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return .object(members) }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw error("expected a key in quotes")
                }
                let keyStart = position
                let key = try string()
                guard keys.insert(key).inserted else {
                    throw SyntaxError(problem: "duplicate key '\(MessageText.line(key))'", offset: keyStart)
                }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { throw error("expected ':'") }
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                if take(UInt8(ascii: "}")) { return .object(members) }
                guard take(UInt8(ascii: ",")) else { throw error("expected ',' or '}'") }
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> BatchJSON {
            position += 1
            var elements: [BatchJSON] = []
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return .array(elements) }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                if take(UInt8(ascii: "]")) { return .array(elements) }
                guard take(UInt8(ascii: ",")) else { throw error("expected ',' or ']'") }
            }
        }

        mutating func number() throws(SyntaxError) -> BatchJSON {
            let start = position
            _ = take(UInt8(ascii: "-"))
            func digits(_ parser: inout Parser) -> Int {
                let from = parser.position
                while parser.position < parser.bytes.count,
                      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.position]) {
                    parser.position += 1
                }
                return parser.position - from
            }
            let integerStart = position
            let integerDigits = digits(&self)
            guard integerDigits > 0 else { throw error("expected a digit") }
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
                throw SyntaxError(problem: "a number has a leading zero", offset: integerStart)
            }
            var whole = true
            if take(UInt8(ascii: ".")) {
                whole = false
                guard digits(&self) > 0 else { throw error("expected a digit") }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                whole = false
                _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
                guard digits(&self) > 0 else { throw error("expected a digit") }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            return .number(text: text, integer: whole ? Int(text) : nil)
        }

        mutating func hexQuad() throws(SyntaxError) -> UInt16 {
            guard position + 4 <= bytes.count else { throw error("unexpected end of line") }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("bad \\u escape")
                }
                value = value << 4 | UInt16(digit)
                position += 1
            }
            return value
        }

        mutating func string() throws(SyntaxError) -> String {
            position += 1
            // Fast path: no escape before the closing quote. Eight bytes at a time while none of them is a quote, a
            // backslash or a control character (base64 certificates are long runs of such bytes), then byte by byte.
            let start = position
            while position + 8 <= bytes.count,
                  !BatchJSON.hasSpecialByte(UnsafeRawPointer(bytes.baseAddress! + position).loadUnaligned(as: UInt64.self)) {
                position += 8
            }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let raw = UnsafeBufferPointer(rebasing: bytes[start..<position])
                    position += 1
                    guard let text = String(validating: raw, as: UTF8.self) else {
                        throw SyntaxError(problem: "a string is not valid UTF-8", offset: start)
                    }
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { throw error("a control character in a string") }
                position += 1
            }
            position = start
            var scalars = String.UnicodeScalarView()
            var pending: [UInt8] = []
            func flush() throws(SyntaxError) {
                guard !pending.isEmpty else { return }
                guard let text = String(validating: pending, as: UTF8.self) else {
                    throw SyntaxError(problem: "a string is not valid UTF-8", offset: start)
                }
                scalars.append(contentsOf: text.unicodeScalars)
                pending.removeAll(keepingCapacity: true)
            }
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    try flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    try flush()
                    guard position < bytes.count else { throw error("unexpected end of line") }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        let unit = try hexQuad()
                        if (0xD800...0xDBFF).contains(unit) {
                            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")) else { throw error("a lone surrogate") }
                            let low = try hexQuad()
                            guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate") }
                            let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                            scalars.append(Unicode.Scalar(value)!)
                        } else {
                            guard let scalar = Unicode.Scalar(unit) else { throw error("a lone surrogate") }
                            scalars.append(scalar)
                        }
                    default: throw error("bad escape")
                    }
                default:
                    guard byte >= 0x20 else { throw error("a control character in a string") }
                    pending.append(byte)
                }
            }
            throw error("unterminated string")
        }
    }
}
