import CertKit
import CertKitBackends
import CertKitSockets
import Foundation

/// Downloads a certificate file from an `http://` or `https://` URL for `certkit trust add URL --sha256 HEX`:
/// one HTTP/1.0 GET (`Connection: close`), up to 5 redirects, the body bounded by ``Limits/maxInputBytes``, the
/// whole download by a timeout. `https://` goes through OpenSSL without judging the server's certificate: what
/// authenticates the download is the SHA-256 the user checked out of band, compared by the caller.
struct HTTPDownload {
    /// The largest body accepted.
    static let sizeLimit = Limits.default.maxInputBytes
    /// The most redirects followed.
    static let maximumRedirects = 5

    /// The bound on each request (connect, send, read everything).
    var timeout: Duration

    /// True when `text` is an `http://` or `https://` URL.
    static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The body of a successful GET of `text`, following redirects.
    /// - Throws: ``CLIError/input(file:problem:)`` naming the URL.
    func fetch(_ text: String) throws(CLIError) -> [UInt8] {
        var current = text
        for _ in 0...Self.maximumRedirects {
            switch try fetchOnce(current) {
            case .body(let bytes): return bytes
            case .redirect(let location):
                guard let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString,
                      Self.isURL(next) else {
                    throw .input(file: text, problem: "redirected to '\(MessageText.line(location, limit: 64))', not an http(s) URL")
                }
                current = next
            }
        }
        throw .input(file: text, problem: "more than \(Self.maximumRedirects) redirects")
    }

    private enum Outcome {
        case body([UInt8])
        case redirect(String)
    }

    private func fetchOnce(_ text: String) throws(CLIError) -> Outcome {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", var host = components.host, !host.isEmpty else {
            throw .input(file: text, problem: "not an http:// or https:// URL")
        }
        guard components.user == nil, components.password == nil else {
            throw .input(file: text, problem: "user names and passwords in URLs are not supported")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let secure = scheme == "https"
        let port = components.port ?? (secure ? 443 : 80)
        guard (1...65_535).contains(port) else { throw .input(file: text, problem: "port \(port) out of range") }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let hostHeader = (host.contains(":") ? "[\(host)]" : host) + (components.port.map { ":\($0)" } ?? "")
        let request = "GET \(target) HTTP/1.0\r\nHost: \(hostHeader)\r\nUser-Agent: certkit/\(CertKitCommand.version)\r\n"
            + "Accept: */*\r\nConnection: close\r\n\r\n"
        let limit = Self.sizeLimit + 64 * 1024
        let response: [UInt8]
        do {
            if secure {
                let isIP = PeerName.parse(host).isIPAddress
                response = try OpenSSLTools.exchange(
                    host: host, port: UInt16(port), serverName: isIP ? nil : host, request: Array(request.utf8),
                    limit: limit, timeout: timeout)
            } else {
                response = try PlainExchange.exchange(
                    host: host, port: UInt16(port), request: Array(request.utf8), limit: limit,
                    deadline: ContinuousClock.now.advanced(by: timeout))
            }
        } catch {
            throw .input(file: text, problem: error.description)
        }
        return try Self.parse(response, url: text)
    }

    /// Reads an HTTP/1.x response: the body of a 200, the location of a redirect, else an error.
    private static func parse(_ response: [UInt8], url: String) throws(CLIError) -> Outcome {
        guard let headerEnd = find([13, 10, 13, 10], in: response) else {
            throw .input(file: url, problem: response.isEmpty ? "the server sent nothing" : "not an HTTP response")
        }
        let head = String(decoding: response[..<headerEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw .input(file: url, problem: "not an HTTP response")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if [301, 302, 303, 307, 308].contains(status) {
            guard let location = headers["location"], !location.isEmpty else {
                throw .input(file: url, problem: "HTTP \(status) without a Location")
            }
            return .redirect(location)
        }
        guard status == 200 else {
            let reason = parts.count > 2 ? " " + MessageText.line(String(parts[2]), limit: 40) : ""
            throw .input(file: url, problem: "HTTP \(status)\(reason)")
        }
        var body = Array(response[(headerEnd + 4)...])
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try dechunk(body, url: url)
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            guard body.count >= length else {
                throw .input(file: url, problem: "the download ended after \(body.count) of \(length) bytes")
            }
            body = Array(body.prefix(length))
        }
        guard body.count <= sizeLimit else {
            throw .input(file: url, problem: "download too large (more than \(sizeLimit >> 20) MiB); not a certificate file")
        }
        return .body(body)
    }

    /// The body of a chunked transfer.
    private static func dechunk(_ bytes: [UInt8], url: String) throws(CLIError) -> [UInt8] {
        var body: [UInt8] = []
        var position = 0
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: position) else {
                throw .input(file: url, problem: "malformed chunked transfer")
            }
            let sizeText = String(decoding: bytes[position..<lineEnd], as: UTF8.self)
                .split(separator: ";").first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
            guard let size = Int(sizeText, radix: 16), size >= 0, size <= sizeLimit else {
                throw .input(file: url, problem: "malformed chunked transfer")
            }
            position = lineEnd + 2
            if size == 0 { return body }
            guard position + size <= bytes.count else { throw .input(file: url, problem: "the download ended early") }
            body += bytes[position..<position + size]
            position += size + 2
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<index + needle.count]) == needle { return index }
        }
        return nil
    }
}

extension PeerName {
    /// True for an IP literal.
    fileprivate var isIPAddress: Bool {
        if case .ip = self { return true }
        return false
    }
}
