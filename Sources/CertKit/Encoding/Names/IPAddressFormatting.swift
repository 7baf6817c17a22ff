/// Text forms of IP addresses held as bytes.
enum IPAddressFormatting {
    /// IPv4 dotted quad (4 bytes), IPv6 in RFC 5952 form (16 bytes), `address/mask` for the 8- and 32-byte
    /// name-constraint forms, and hex for anything else.
    static func string(_ bytes: [UInt8]) -> String {
        switch bytes.count {
        case 4: return ipv4(bytes[...])
        case 16: return ipv6(bytes[...])
        case 8: return ipv4(bytes[0..<4]) + "/" + ipv4(bytes[4..<8])
        case 32: return ipv6(bytes[0..<16]) + "/" + ipv6(bytes[16..<32])
        default: return "#" + Hex.encode(bytes)
        }
    }

    private static func ipv4(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map(String.init).joined(separator: ".")
    }

    /// RFC 5952: lowercase hex, no leading zeros, the longest run (≥ 2) of zero groups as `::` (first on ties).
    private static func ipv6(_ bytes: ArraySlice<UInt8>) -> String {
        let base = bytes.startIndex
        let groups = (0..<8).map { UInt16(bytes[base + 2 * $0]) << 8 | UInt16(bytes[base + 2 * $0 + 1]) }
        var bestStart = -1, bestLength = 0, runStart = -1
        for index in 0...8 {
            if index < 8 && groups[index] == 0 {
                if runStart < 0 { runStart = index }
            } else if runStart >= 0 {
                let length = index - runStart
                if length > bestLength { bestStart = runStart; bestLength = length }
                runStart = -1
            }
        }
        if bestLength < 2 { bestStart = -1 }
        let hex = { (group: UInt16) in String(group, radix: 16) }
        guard bestStart >= 0 else { return groups.map(hex).joined(separator: ":") }
        let head = groups[0..<bestStart].map(hex).joined(separator: ":")
        let tail = groups[(bestStart + bestLength)...].map(hex).joined(separator: ":")
        return head + "::" + tail
    }
}
