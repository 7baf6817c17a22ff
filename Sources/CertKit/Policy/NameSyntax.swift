/// Whether a name is a valid name of its type (RFC 5280 §4.2.1.6), for the rules where an invalid name must not
/// count: a dNSName in preferred name syntax (RFC 1034 §3.5 as relaxed by RFC 1123 §2.1: letters, digits and
/// hyphens, labels of 1–63 characters not starting or ending with a hyphen, at most 253 characters; a whole
/// left-most `*` label is accepted as a wildcard), an rfc822Name `local@host` with a valid host, an iPAddress of
/// 4 or 16 bytes, a URI with a scheme and a valid host.
package enum NameSyntax {
    /// True when `name` is valid for its type; other forms (directoryName, otherName) are always valid here.
    public static func isValid(_ name: GeneralName) -> Bool {
        switch name {
        case .dnsName(let host):
            return isHostName(host.hasPrefix("*.") ? String(host.dropFirst(2)) : host)
        case .email(let address):
            guard let at = address.lastIndex(of: "@"), at != address.startIndex else { return false }
            return isHostName(String(address[address.index(after: at)...]))
        case .ipAddress(let bytes):
            return bytes.count == 4 || bytes.count == 16
        case .uri(let uri):
            guard let schemeEnd = uri.range(of: "://"), schemeEnd.lowerBound != uri.startIndex else { return false }
            return NameConstraintsChecker.uriHost(uri) != nil
        case .directoryName, .other:
            return true
        }
    }

    /// True when `text` is a host name in preferred name syntax (one trailing dot allowed).
    public static func isHostName(_ text: String) -> Bool {
        var host = Substring(text)
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !host.isEmpty, host.utf8.count <= 253 else { return false }
        return host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            let bytes = Array(label.utf8)
            guard (1...63).contains(bytes.count), bytes.first != 0x2D, bytes.last != 0x2D else { return false }
            return bytes.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
            }
        }
    }
}
