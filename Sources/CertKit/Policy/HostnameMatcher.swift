/// Matches a TLS peer name against a leaf's subjectAltName, as Apple's SSL policy does:
/// SAN only (no CN fallback); a wildcard only as the entire left-most label, never partial (`f*.example.com`),
/// never across labels, never for IP addresses, and never directly above a single-label domain (`*.com`);
/// case-insensitive; a trailing dot ignored; IDNA A-labels compared as ASCII; IP addresses compared as bytes.
public enum HostnameMatcher {
    /// True when `name` matches one of `subjectAltNames`.
    public static func matches(_ name: PeerName, subjectAltNames: [GeneralName]) -> Bool {
        switch name {
        case .ip(let address):
            return subjectAltNames.contains { entry in
                if case .ipAddress(let bytes) = entry { return bytes == address }
                return false
            }
        case .dns(let host):
            let normalizedHost = normalize(host)
            guard !normalizedHost.isEmpty else { return false }
            return subjectAltNames.contains { entry in
                if case .dnsName(let pattern) = entry { return dnsPattern(normalize(pattern), matches: normalizedHost) }
                return false
            }
        }
    }

    /// True when the DNS pattern (already normalized) matches the host (already normalized).
    static func dnsPattern(_ pattern: String, matches host: String) -> Bool {
        guard !pattern.isEmpty else { return false }
        guard pattern.contains("*") else { return pattern == host }
        let patternLabels = pattern.split(separator: ".", omittingEmptySubsequences: false)
        let hostLabels = host.split(separator: ".", omittingEmptySubsequences: false)
        // The wildcard must be the whole left-most label and the only one; at least two labels must follow it.
        guard patternLabels.count >= 3, patternLabels[0] == "*",
              !patternLabels.dropFirst().contains(where: { $0.contains("*") || $0.isEmpty }) else { return false }
        guard hostLabels.count == patternLabels.count, !hostLabels[0].isEmpty else { return false }
        return hostLabels.dropFirst().elementsEqual(patternLabels.dropFirst())
    }

    /// Lowercases ASCII and drops one trailing dot.
    static func normalize(_ name: String) -> String {
        var lowered = String(decoding: name.utf8.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self)
        if lowered.hasSuffix(".") { lowered.removeLast() }
        return lowered
    }
}
