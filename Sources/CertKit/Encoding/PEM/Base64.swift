/// Base64 (RFC 4648) codec over byte arrays, table-driven.
package enum Base64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Sextet values by character; 0xFF for characters outside the alphabet, 0xFE for whitespace, 0xFD for `=`.
    static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = UInt8(index) }
        for space in [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")] { table[Int(space)] = 0xFE }
        table[Int(UInt8(ascii: "="))] = 0xFD
        return table
    }()

    /// Standard base64 with padding.
    package static func encode(_ bytes: [UInt8]) -> String {
        String(decoding: encodeBytes(bytes), as: UTF8.self)
    }

    /// Standard base64 with padding, as ASCII bytes.
    static func encodeBytes(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: encodedCount(bytes.count)) { out, initialized in
            initialized = bytes.withUnsafeBufferPointer { encode($0, into: out) }
        }
    }

    /// The length of the base64 text of `byteCount` bytes (padded).
    static func encodedCount(_ byteCount: Int) -> Int { (byteCount + 2) / 3 * 4 }

    /// Writes the padded base64 text of `input` at the start of `out` (which holds at least
    /// ``encodedCount(_:)`` bytes) and returns how many bytes it wrote; no other copy of the input is made.
    static func encode(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        alphabet.withUnsafeBufferPointer { table in
            var i = 0, o = 0
            let n = input.count
            while i + 3 <= n {
                let value = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                out[o] = table[Int(value >> 18)]
                out[o + 1] = table[Int((value >> 12) & 0x3F)]
                out[o + 2] = table[Int((value >> 6) & 0x3F)]
                out[o + 3] = table[Int(value & 0x3F)]
                i += 3
                o += 4
            }
            let rest = n - i
            if rest > 0 {
                let value = UInt32(input[i]) << 16 | (rest == 2 ? UInt32(input[i + 1]) << 8 : 0)
                out[o] = table[Int(value >> 18)]
                out[o + 1] = table[Int((value >> 12) & 0x3F)]
                out[o + 2] = rest == 2 ? table[Int((value >> 6) & 0x3F)] : UInt8(ascii: "=")
                out[o + 3] = UInt8(ascii: "=")
                o += 4
            }
            return o
        }
    }

    /// Decodes standard base64 (padding optional, no whitespace); nil when malformed.
    package static func decode(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard !bytes.contains(where: { decodeTable[Int($0)] == 0xFE }) else { return nil }
        return decode(bytes, from: 0, to: bytes.count)
    }

    /// Decodes base64 in `text[start..<end]`, skipping spaces, tabs, CR and LF. Padding is optional; after
    /// padding only whitespace may follow. Returns nil when malformed.
    package static func decode(_ text: [UInt8], from start: Int, to end: Int) -> [UInt8]? {
        guard start >= 0, start <= end, end <= text.count else { return nil }
        let capacity = (end - start) / 4 * 3 + 3
        var ok = true
        let result = [UInt8](unsafeUninitializedCapacity: capacity) { out, initialized in
            decodeTable.withUnsafeBufferPointer { table in
                text.withUnsafeBufferPointer { input in
                    var accumulator: UInt32 = 0
                    var sextets = 0
                    var o = 0
                    var padding = 0
                    var i = start
                    guard let source = input.baseAddress, let sextet = table.baseAddress, let target = out.baseAddress else {
                        initialized = 0  // an empty text: nothing to decode
                        return
                    }
                    while i < end {
                        // Fast path: runs of alphabet characters at a quantum boundary decode four characters to
                        // three bytes at a time (two quanta per step while they last), exactly as the
                        // character-by-character path below would decode them.
                        if sextets == 0, padding == 0 {
                            if decodeQuanta(source, sextet, target, i: &i, o: &o, end: end) { continue }
                            if i >= end { break }
                        }
                        let value = table[Int(input[i])]
                        i += 1
                        if value < 64 {
                            if padding > 0 { ok = false; break }
                            accumulator = accumulator << 6 | UInt32(value)
                            sextets += 1
                            if sextets == 4 {
                                out[o] = UInt8(truncatingIfNeeded: accumulator >> 16)
                                out[o + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                                out[o + 2] = UInt8(truncatingIfNeeded: accumulator)
                                o += 3
                                sextets = 0
                                accumulator = 0
                            }
                        } else if value == 0xFE {
                            continue
                        } else if value == 0xFD {
                            padding += 1
                            if padding > 2 || sextets < 2 || sextets + padding > 4 { ok = false; break }
                        } else {
                            ok = false
                            break
                        }
                    }
                    if ok { ok = finish(accumulator, sextets: sextets, padding: padding, into: target, at: &o) }
                    initialized = o
                }
            }
        }
        return ok ? result : nil
    }

    /// The fast path: runs of alphabet characters at a quantum boundary decode four characters to three bytes at a
    /// time (two quanta per step while they last, then one), exactly as the character-by-character path would
    /// decode them. True when it ended on a decoded quantum (look again); false when the next quantum holds
    /// anything else (whitespace, padding, a bad character) or fewer than four characters remain, for the
    /// character-by-character path.
    @inline(__always)
    private static func decodeQuanta(
        _ source: UnsafePointer<UInt8>, _ sextet: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>,
        i: inout Int, o: inout Int, end: Int
    ) -> Bool {
        while end - i >= 8 {
            let a = sextet[Int(source[i])], b = sextet[Int(source[i + 1])]
            let c = sextet[Int(source[i + 2])], d = sextet[Int(source[i + 3])]
            let e = sextet[Int(source[i + 4])], f = sextet[Int(source[i + 5])]
            let g = sextet[Int(source[i + 6])], h = sextet[Int(source[i + 7])]
            guard a | b | c | d | e | f | g | h < 64 else { break }
            let first = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            let second = UInt32(e) << 18 | UInt32(f) << 12 | UInt32(g) << 6 | UInt32(h)
            target[o] = UInt8(truncatingIfNeeded: first >> 16)
            target[o + 1] = UInt8(truncatingIfNeeded: first >> 8)
            target[o + 2] = UInt8(truncatingIfNeeded: first)
            target[o + 3] = UInt8(truncatingIfNeeded: second >> 16)
            target[o + 4] = UInt8(truncatingIfNeeded: second >> 8)
            target[o + 5] = UInt8(truncatingIfNeeded: second)
            o += 6
            i += 8
        }
        guard end - i >= 4 else { return false }
        let a = sextet[Int(source[i])], b = sextet[Int(source[i + 1])]
        let c = sextet[Int(source[i + 2])], d = sextet[Int(source[i + 3])]
        guard a | b | c | d < 64 else { return false }
        let quantum = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
        target[o] = UInt8(truncatingIfNeeded: quantum >> 16)
        target[o + 1] = UInt8(truncatingIfNeeded: quantum >> 8)
        target[o + 2] = UInt8(truncatingIfNeeded: quantum)
        o += 3
        i += 4
        return true
    }

    /// Writes the last, partial quantum (`sextets` characters, then `padding` pad characters) and says whether the
    /// text ended well: padding completes a quantum exactly, and a quantum of one character is malformed.
    @inline(__always)
    private static func finish(
        _ accumulator: UInt32, sextets: Int, padding: Int, into target: UnsafeMutablePointer<UInt8>, at o: inout Int
    ) -> Bool {
        if padding > 0 && sextets + padding != 4 { return false }
        switch sextets {
        case 0:
            return true
        case 2:
            target[o] = UInt8(truncatingIfNeeded: accumulator >> 4)
            o += 1
            return true
        case 3:
            target[o] = UInt8(truncatingIfNeeded: accumulator >> 10)
            target[o + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
            o += 2
            return true
        default:
            return false
        }
    }
}
