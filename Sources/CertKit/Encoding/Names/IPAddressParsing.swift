import Foundation

/// Parses IP address text into bytes, strictly: only the canonical literal forms are addresses, so that one
/// address has one spelling and nothing else is silently read as an address.
enum IPAddressParsing {
    /// Parses a canonical IPv4 dotted quad (``ipv4(_:)``) or an IPv6 literal (``ipv6(_:)``) into 4 or 16 bytes;
    /// nil for anything else, including a bracketed IPv6 literal (`[::1]`: strip URL brackets first), an IPv6
    /// literal with a zone id (`fe80::1%eth0`), a trailing dot (`1.2.3.4.`) and the legacy IPv4 spellings
    /// (`01.2.3.4`, `0x7f.1`, `0177.0.0.1`, `127.1`, `2130706433`).
    static func parse(_ text: String) -> [UInt8]? {
        let body = Substring(text)
        if body.utf8.contains(UInt8(ascii: ":")) { return ipv6(body) }
        return ipv4(body)
    }

    /// True when `text` would be taken for an IP address by some parser — a browser's URL parser, `inet_aton`
    /// — although it may not be a canonical literal: it contains `:`, `[`, `]` or `%` (IPv6 text, brackets,
    /// zone ids; never part of a host name), or, after one trailing dot is dropped, its last dot-separated label
    /// is all ASCII digits or `0x`/`0X` followed by hex digits only (the WHATWG URL Standard's "ends in a
    /// number" rule, which makes a URL parser read the whole host as IPv4: `1.2.3.4.`, `01.2.3.4`, `0x7f.1`,
    /// `0177.0.0.1`, `127.1`, `example.0x10`). Such text is never a DNS host name.
    static func looksLikeIPLiteral(_ text: String) -> Bool {
        if let ascii = text.utf8.withContiguousStorageIfAvailable({ bytes in
            bytes.contains(where: { $0 >= 0x80 }) ? nil : looksLikeIPLiteral(ascii: bytes)
        }), let ascii {
            return ascii
        }
        return looksLikeIPLiteral(characters: text)
    }

    /// ``looksLikeIPLiteral(_:)`` by `Character` (text that is not all ASCII; the tests compare both paths).
    static func looksLikeIPLiteral(characters text: String) -> Bool {
        if text.contains(where: { $0 == ":" || $0 == "[" || $0 == "]" || $0 == "%" }) { return true }
        var labels = text.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
        guard let last = labels.last, !last.isEmpty else { return false }
        if last.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        let lowered = last.lowercased()
        return lowered.hasPrefix("0x") && lowered.utf8.dropFirst(2).allSatisfy(isASCIIHexDigit)
    }

    /// ``looksLikeIPLiteral(_:)`` over the bytes of all-ASCII text (the caller checked): the same rules byte by
    /// byte, since in ASCII text every tested character is one byte and a label is the bytes between dots.
    static func looksLikeIPLiteral(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.contains(where: { $0 == 0x3A || $0 == 0x5B || $0 == 0x5D || $0 == 0x25 }) { return true }
        var end = bytes.count
        // A trailing dot's empty last label is dropped (text ending in a dot has at least two labels).
        if end > 0, bytes[end - 1] == 0x2E { end -= 1 }
        var start = end
        while start > 0, bytes[start - 1] != 0x2E { start -= 1 }
        let last = bytes[start..<end]
        guard !last.isEmpty else { return false }
        if last.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        return last.count >= 2 && last[start] == 0x30 && (last[start + 1] | 0x20) == 0x78
            && last.dropFirst(2).allSatisfy(isASCIIHexDigit)
    }

    private static func isASCIIHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
    }

    /// Four decimal octets 0-255, no leading zeros (to avoid octal ambiguity), no signs.
    static func ipv4(_ text: Substring) -> [UInt8]? {
        if let answer = text.utf8.withContiguousStorageIfAvailable(ipv4(ascii:)) { return answer }
        return ipv4(characters: text)
    }

    /// ``ipv4(_:)`` by `Character` (text without contiguous UTF-8; the tests compare both paths).
    static func ipv4(characters text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  !(part.count > 1 && part.hasPrefix("0")), let value = UInt8(part) else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// ``ipv4(_:)`` over UTF-8 bytes: four groups of one to three ASCII digits separated by dots, no leading zero,
    /// each at most 255. Any other byte (a non-ASCII one included, which the `Character` path refuses as not an
    /// ASCII digit) gives nil.
    static func ipv4(ascii bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(4)
        var value = 0, digits = 0, leadingZero = false
        for byte in bytes {
            if byte == 0x2E {
                guard digits > 0, result.count < 3 else { return nil }
                result.append(UInt8(value))
                value = 0
                digits = 0
                leadingZero = false
                continue
            }
            guard byte >= 0x30, byte <= 0x39, digits < 3, !leadingZero else { return nil }
            if digits == 0 { leadingZero = byte == 0x30 } else { leadingZero = false }
            value = value * 10 + Int(byte - 0x30)
            digits += 1
            guard value <= 255 else { return nil }
        }
        guard digits > 0, result.count == 3 else { return nil }
        result.append(UInt8(value))
        return result
    }

    /// RFC 4291 §2.2 text: eight groups of 1–4 hex digits (either case), at most one `::` for a run of zero
    /// groups, optionally a canonical dotted-quad tail in place of the last two groups.
    static func ipv6(_ text: Substring) -> [UInt8]? {
        guard !text.isEmpty else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        guard let head = groups(Substring(halves[0]), allowTrailingIPv4: halves.count == 1) else { return nil }
        if halves.count == 1 {
            guard head.count == 16 else { return nil }
            return head
        }
        guard let tail = groups(Substring(halves[1]), allowTrailingIPv4: true) else { return nil }
        guard head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }

    /// The bytes of colon-separated hex groups (possibly empty), with an optional IPv4 tail.
    private static func groups(_ text: Substring, allowTrailingIPv4: Bool) -> [UInt8]? {
        guard !text.isEmpty else { return [] }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var bytes: [UInt8] = []
        for (index, part) in parts.enumerated() {
            if index == parts.count - 1 && allowTrailingIPv4 && part.contains(".") {
                guard let v4 = ipv4(part) else { return nil }
                bytes += v4
                continue
            }
            guard !part.isEmpty, part.count <= 4, part.allSatisfy({ $0.isHexDigit && $0.isASCII }),
                  let value = UInt16(part, radix: 16) else { return nil }
            bytes.append(UInt8(value >> 8))
            bytes.append(UInt8(value & 0xFF))
        }
        return bytes
    }
}
