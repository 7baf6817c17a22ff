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
        let target: HTTPRequestTarget
        do {
            target = try HTTPRequestTarget(text, allowHTTPS: true, userAgent: "certkit/\(CertKitCommand.version)")
        } catch {
            throw .input(file: text, problem: error.message)
        }
        let host = target.host
        let port = target.port
        let request = target.request
        let limit = Self.sizeLimit + 64 * 1024
        let response: [UInt8]
        do {
            if target.isSecure {
                let isIP = PeerName.parse(host).isIPAddress
                response = try OpenSSLTools.exchange(
                    host: host, port: port, serverName: isIP ? nil : host, request: request,
                    limit: limit, timeout: timeout)
            } else {
                response = try PlainExchange.exchange(
                    host: host, port: port, request: request, limit: limit,
                    deadline: ContinuousClock.now.advanced(by: timeout))
            }
        } catch {
            throw .input(file: text, problem: error.description)
        }
        return try Self.parse(response, url: text)
    }

    /// Reads an HTTP/1.x response (``HTTPResponse``): the body of a 200, the location of a redirect, else an error.
    private static func parse(_ bytes: [UInt8], url: String) throws(CLIError) -> Outcome {
        let response: HTTPResponse
        do {
            response = try HTTPResponse(bytes, sizeLimit: sizeLimit)
        } catch {
            let problem = error.message.hasPrefix("the body is larger")
                ? "download too large (more than \(sizeLimit >> 20) MiB); not a certificate file" : error.message
            throw .input(file: url, problem: problem)
        }
        if response.isRedirect {
            guard let location = response.headers["location"], !location.isEmpty else {
                throw .input(file: url, problem: "HTTP \(response.status) without a Location")
            }
            return .redirect(location)
        }
        guard response.status == 200 else {
            throw .input(file: url, problem: "HTTP \(response.status)" + (response.reason.isEmpty ? "" : " \(response.reason)"))
        }
        return .body(response.body)
    }
}

extension PeerName {
    /// True for an IP literal.
    fileprivate var isIPAddress: Bool {
        if case .ip = self { return true }
        return false
    }
}
