/// Matches a TLS peer name against a leaf's subjectAltName, as Apple's SSL policy does:
/// SAN only (no CN fallback); a wildcard only as the entire left-most label, never partial (`f*.example.com`),
/// never across labels, never for IP addresses, and never directly above a single-label domain (`*.com`);
/// case-insensitive; one trailing dot on the host ignored (as trustd's SecDNSMatch does; the Web PKI and RFC 5280
/// profiles refuse such a host before matching, `TrustRules/hostTrailingDot`), while a dNSName with a trailing
/// dot is not a valid name and matches nothing; IDNA A-labels compared as ASCII; IP addresses compared as bytes.
///
/// Fails closed on names that are not host names: a ``PeerName/dns(_:)`` name that is empty, has an empty
/// label (`a..b`) or looks like an IP address (``isHostName(_:)``) matches nothing, neither a dNSName nor an
/// iPAddress entry. IP addresses are only ever matched as ``PeerName/ip(_:)`` (``PeerName/parse(_:)`` makes
/// one from a canonical literal), against iPAddress entries of the same length and bytes.
package enum HostnameMatcher {
    /// True when `name` matches one of `subjectAltNames`.
    package static func matches(_ name: PeerName, subjectAltNames: [GeneralName]) -> Bool {
        switch name {
        case .ip(let address):
            return subjectAltNames.contains { entry in
                if case .ipAddress(let bytes) = entry { return bytes == address }
                return false
            }
        case .dns(let host):
            guard isHostName(host) else { return false }
            let normalizedHost = normalize(host)
            return subjectAltNames.contains { entry in
                if case .dnsName(let pattern) = entry, !pattern.hasSuffix(".") {
                    return dnsPattern(normalize(pattern), matches: normalizedHost)
                }
                return false
            }
        }
    }

    /// True when the DNS pattern (already normalized) matches the host (already normalized).
    static func dnsPattern(_ pattern: String, matches host: String) -> Bool {
        guard !pattern.isEmpty else { return false }
        guard pattern.utf8.contains(UInt8(ascii: "*")) else { return pattern == host }
        let patternLabels = pattern.split(separator: ".", omittingEmptySubsequences: false)
        let hostLabels = host.split(separator: ".", omittingEmptySubsequences: false)
        // The wildcard must be the whole left-most label and the only one; at least two labels must follow it.
        guard patternLabels.count >= 3, patternLabels[0] == "*",
              !patternLabels.dropFirst().contains(where: { $0.contains("*") || $0.isEmpty }) else { return false }
        guard hostLabels.count == patternLabels.count, !hostLabels[0].isEmpty else { return false }
        return hostLabels.dropFirst().elementsEqual(patternLabels.dropFirst())
    }

    /// True when `host` can be matched as a DNS name: after one trailing dot is dropped it is not empty, has
    /// no empty label, and does not look like an IP address (`IPAddressParsing.looksLikeIPLiteral`: a
    /// last label of digits or `0x…`, or any of `:[]%`), whether or not it is a canonical literal.
    package static func isHostName(_ host: String) -> Bool {
        if let ascii = isASCIIHostName(host) { return ascii }
        return isHostName(characters: host)
    }

    /// ``isHostName(_:)`` by `Character` (text that is not all ASCII; the tests compare both paths).
    static func isHostName(characters host: String) -> Bool {
        let trimmed = normalize(host)
        guard !trimmed.isEmpty, !trimmed.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
        else { return false }
        return !IPAddressParsing.looksLikeIPLiteral(host)
    }

    /// ``isHostName(_:)`` over the bytes of an all-ASCII `host` (where every character but CR LF is one byte and
    /// none of the tested characters is part of CR LF); nil for other text, which takes the `Character` path.
    static func isASCIIHostName(_ host: String) -> Bool? {
        let answer = host.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            var end = bytes.count
            if end > 0, bytes[end - 1] == dot { end -= 1 }
            guard end > 0, bytes[0] != dot, bytes[end - 1] != dot else { return false }
            for index in 1..<end where bytes[index] == dot && bytes[index - 1] == dot { return false }
            return !IPAddressParsing.looksLikeIPLiteral(ascii: bytes)
        }
        return answer ?? nil
    }

    private static let dot = UInt8(ascii: ".")

    /// Lowercases ASCII and drops one trailing dot.
    static func normalize(_ name: String) -> String {
        var lowered = String(decoding: name.utf8.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self)
        if lowered.hasSuffix(".") { lowered.removeLast() }
        return lowered
    }
}
