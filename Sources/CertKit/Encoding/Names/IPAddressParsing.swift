import Foundation

/// Parses IP address text into bytes.
enum IPAddressParsing {
    /// Parses an IPv4 dotted quad or an IPv6 literal (optionally in brackets, `::` and an embedded IPv4 tail
    /// allowed) into 4 or 16 bytes; nil for anything else.
    static func parse(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        if body.hasPrefix("[") {
            guard body.hasSuffix("]"), body.count >= 2 else { return nil }
            body = body.dropFirst().dropLast()
            return ipv6(body)
        }
        if body.contains(":") { return ipv6(body) }
        return ipv4(body)
    }

    /// Four decimal octets 0-255, no leading zeros (to avoid octal ambiguity), no signs.
    static func ipv4(_ text: Substring) -> [UInt8]? {
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
