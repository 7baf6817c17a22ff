/// Whether a name is a valid name of its type (RFC 5280 §4.2.1.6), for the rules where an invalid name must not
/// count: a dNSName in preferred name syntax (RFC 1034 §3.5 as relaxed by RFC 1123 §2.1: letters, digits and
/// hyphens, labels of 1–63 characters not starting or ending with a hyphen, at most 253 characters, no trailing
/// dot; a whole left-most `*` label is accepted as a wildcard), an rfc822Name that is an RFC 5321 §4.1.2 Mailbox (``isMailbox(_:)``),
/// an iPAddress of 4 or 16 bytes, a URI with a scheme and a valid host.
package enum NameSyntax {
    /// True when `name` is valid for its type; other forms (directoryName, otherName) are always valid here.
    package static func isValid(_ name: GeneralName) -> Bool {
        switch name {
        case .dnsName(let host):
            // The preferred name syntax has no trailing dot (RFC 1034 §3.5): a dNSName `www.example.com.` is not
            // one, whatever a peer name given with one trailing dot may be (``isHostName(_:)``).
            return !host.hasSuffix(".") && isHostName(host.hasPrefix("*.") ? String(host.dropFirst(2)) : host)
        case .email(let address):
            return isMailbox(address)
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
    package static func isHostName(_ text: String) -> Bool {
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

    /// True when `address` is a Mailbox (RFC 5280 §4.2.1.6, RFC 5321 §4.1.2): a Local-part — a Dot-string (atoms of
    /// `atext` joined by single dots) or a Quoted-string (printable ASCII between double quotes, `\` escaping one
    /// printable character) — then one `@`, then a host name in preferred name syntax without a trailing dot.
    /// An address-literal (`user@[192.0.2.1]`) is not accepted: no name constraint form describes it.
    package static func isMailbox(_ address: String) -> Bool {
        let bytes = Array(address.utf8)
        guard let localEnd = localPartEnd(bytes), localEnd < bytes.count, bytes[localEnd] == at else { return false }
        let domain = String(decoding: bytes[(localEnd + 1)...], as: UTF8.self)
        return !domain.hasSuffix(".") && isHostName(domain)
    }

    private static let at = UInt8(ascii: "@")
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// The index just after the Local-part at the start of `bytes`, or nil when it is not one.
    private static func localPartEnd(_ bytes: [UInt8]) -> Int? {
        guard let first = bytes.first else { return nil }
        if first == quote {
            var index = 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == quote { return index > 1 ? index + 1 : nil }
                if byte == backslash {
                    guard index + 1 < bytes.count, (0x20...0x7E).contains(bytes[index + 1]) else { return nil }
                    index += 2
                    continue
                }
                guard (0x20...0x7E).contains(byte) else { return nil }
                index += 1
            }
            return nil
        }
        var index = 0
        var atomLength = 0
        while index < bytes.count, bytes[index] != at {
            if bytes[index] == UInt8(ascii: ".") {
                guard atomLength > 0 else { return nil }
                atomLength = 0
            } else {
                guard isAtext(bytes[index]) else { return nil }
                atomLength += 1
            }
            index += 1
        }
        return atomLength > 0 ? index : nil
    }

    /// RFC 5322 §3.2.3 atext: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    private static func isAtext(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: "!#$%&'*+-/=?^_`{|}~".utf8.contains(byte)
        }
    }
}
