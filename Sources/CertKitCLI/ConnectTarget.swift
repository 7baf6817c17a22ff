import CertKit

/// The `HOST[:PORT]` argument of `certkit connect`: a DNS name, an IPv4 literal, or an IPv6 literal (bare, or in
/// brackets when a port follows: `[::1]:8443`). The port defaults to 443.
struct ConnectTarget: Equatable, CustomStringConvertible {
    /// The host without brackets.
    var host: String
    /// The TCP port.
    var port: UInt16

    /// The default HTTPS port.
    static let defaultPort: UInt16 = 443

    /// Parses `text`; nil when the host is empty or the port is not 1...65535.
    init?(_ text: String) {
        var host = text
        var portText: String?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = String(rest.dropFirst())
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
        if let portText {
            guard let port = UInt16(portText), port > 0 else { return nil }
            self.port = port
        } else {
            self.port = Self.defaultPort
        }
        self.host = host
    }

    /// True when the host is an IPv4 or IPv6 literal (which is never sent as SNI).
    var isIPLiteral: Bool {
        if case .ip = PeerName.parse(host) { return true }
        return false
    }

    /// `host:port`, with brackets around an IPv6 literal: how errors name the server.
    var description: String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}
