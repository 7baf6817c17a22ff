import CertKit
import Foundation

/// Where one HTTP/1.0 GET goes and what it says, from an `http://` (or, where allowed, `https://`) URL: host (IPv6
/// brackets removed), port, and the request bytes (`Connection: close`). Shared by ``HTTPFetcher`` and
/// `certkit trust add URL`.
package struct HTTPRequestTarget {
    /// The host to connect to.
    package let host: String
    /// The port (80 or 443 by default).
    package let port: UInt16
    /// True for `https`.
    package let isSecure: Bool
    /// The request to send.
    package let request: [UInt8]

    /// Reads `url`; `allowHTTPS` admits `https://`.
    /// - Throws: a one-line reason (`not an http:// URL`, `user names and passwords in URLs are not supported`, ...).
    package init(_ url: String, allowHTTPS: Bool, userAgent: String) throws(NetworkFetchError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || (allowHTTPS && scheme == "https"), var host = components.host, !host.isEmpty else {
            throw NetworkFetchError(allowHTTPS ? "not an http:// or https:// URL" : "not an http:// URL")
        }
        guard components.user == nil, components.password == nil else {
            throw NetworkFetchError("user names and passwords in URLs are not supported")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let secure = scheme == "https"
        let port = components.port ?? (secure ? 443 : 80)
        guard (1...65_535).contains(port) else { throw NetworkFetchError("port \(port) out of range") }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let hostHeader = (host.contains(":") ? "[\(host)]" : host) + (components.port.map { ":\($0)" } ?? "")
        self.host = host
        self.port = UInt16(port)
        self.isSecure = secure
        self.request = Array(
            ("GET \(target) HTTP/1.0\r\nHost: \(hostHeader)\r\nUser-Agent: \(userAgent)\r\nAccept: */*\r\n"
                + "Connection: close\r\n\r\n").utf8)
    }
}
