import CertKit

/// One HTTP/1.x response read from the whole byte stream of a `Connection: close` exchange: the status, the
/// headers (names lowercased), and the body (de-chunked, cut to Content-Length). Shared by `certkit trust add URL`
/// and ``HTTPFetcher``.
package struct HTTPResponse {
    /// The status code.
    package var status: Int
    /// The reason phrase, at most 40 characters.
    package var reason: String
    /// The headers, names lowercased (the last of repeated ones).
    package var headers: [String: String]
    /// The body.
    package var body: [UInt8]

    /// Parses `bytes`; a body over `sizeLimit` bytes is an error.
    /// - Throws: a one-line reason (`not an HTTP response`, `the server sent nothing`, ...).
    package init(_ bytes: [UInt8], sizeLimit: Int) throws(NetworkFetchError) {
        guard let headerEnd = Self.find([13, 10, 13, 10], in: bytes) else {
            throw NetworkFetchError(bytes.isEmpty ? "the server sent nothing" : "not an HTTP response")
        }
        let head = String(decoding: bytes[..<headerEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw NetworkFetchError("not an HTTP response")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(headerEnd + 4)...])
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try Self.dechunk(body, sizeLimit: sizeLimit)
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            guard length >= 0 else { throw NetworkFetchError("malformed Content-Length") }
            guard length <= sizeLimit else { throw NetworkFetchError("the body is larger than \(sizeLimit) bytes") }
            guard body.count >= length else {
                throw NetworkFetchError("the download ended after \(body.count) of \(length) bytes")
            }
            body = Array(body.prefix(length))
        }
        guard body.count <= sizeLimit else {
            throw NetworkFetchError("the body is larger than \(sizeLimit) bytes")
        }
        self.status = status
        self.reason = parts.count > 2 ? MessageText.line(String(parts[2]), limit: 40) : ""
        self.headers = headers
        self.body = body
    }

    /// True for a redirect status (301, 302, 303, 307, 308).
    package var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) }

    /// `Cache-Control: max-age` in seconds, nil when absent or when `no-store`/`no-cache` is present.
    package var maxAge: Int? {
        guard let control = headers["cache-control"]?.lowercased() else { return nil }
        let directives = control.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if directives.contains("no-store") || directives.contains("no-cache") { return nil }
        return directives.lazy.compactMap { $0.hasPrefix("max-age=") ? Int($0.dropFirst(8)) : nil }.first
    }

    /// The body of a chunked transfer.
    private static func dechunk(_ bytes: [UInt8], sizeLimit: Int) throws(NetworkFetchError) -> [UInt8] {
        var body: [UInt8] = []
        var position = 0
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: position) else {
                throw NetworkFetchError("malformed chunked transfer")
            }
            let sizeText = String(decoding: bytes[position..<lineEnd], as: UTF8.self)
                .split(separator: ";").first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
            guard let size = Int(sizeText, radix: 16), size >= 0, size <= sizeLimit else {
                throw NetworkFetchError("malformed chunked transfer")
            }
            position = lineEnd + 2
            if size == 0 { return body }
            guard position + size <= bytes.count else { throw NetworkFetchError("the download ended early") }
            body += bytes[position..<position + size]
            position += size + 2
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
        }
        return nil
    }
}
