import CertKit
import Foundation

/// The ``NetworkFetcher`` certkit uses when network fetching is allowed (`--network`): plain HTTP/1.0 GETs
/// (`Connection: close`) over ``TCPConnection``, for the `http://` URLs of certificates (caIssuers, OCSP, CRL
/// distribution points as the Web PKI serves them). No TLS, no other scheme, no user info; at most
/// ``maximumRedirects`` redirects, each to an `http://` URL; the whole fetch, redirects included, within `timeout`;
/// the body at most `maximumBytes`.
package struct HTTPFetcher: NetworkFetcher {
    /// The most redirects followed.
    package static let maximumRedirects = 3

    /// Creates a fetcher.
    package init() {}

    package func fetch(_ url: String, timeout: Duration, maximumBytes: Int) throws(NetworkFetchError) -> NetworkFetchResponse {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var current = url
        for _ in 0...Self.maximumRedirects {
            let response = try fetchOnce(current, deadline: deadline, maximumBytes: maximumBytes)
            if response.isRedirect {
                guard let location = response.headers["location"],
                      let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString,
                      next.lowercased().hasPrefix("http://") else {
                    throw NetworkFetchError("redirected to '\(MessageText.line(response.headers["location"] ?? "", limit: 64))', not an http:// URL")
                }
                current = next
                continue
            }
            guard response.status == 200 else {
                throw NetworkFetchError("HTTP \(response.status)" + (response.reason.isEmpty ? "" : " \(response.reason)"))
            }
            return NetworkFetchResponse(body: response.body, maxAge: response.maxAge)
        }
        throw NetworkFetchError("more than \(Self.maximumRedirects) redirects")
    }

    private func fetchOnce(
        _ url: String, deadline: ContinuousClock.Instant, maximumBytes: Int
    ) throws(NetworkFetchError) -> HTTPResponse {
        let target = try HTTPRequestTarget(url, allowHTTPS: false, userAgent: "certkit")
        let bytes: [UInt8]
        do {
            bytes = try PlainExchange.exchange(
                host: target.host, port: target.port, request: target.request, limit: maximumBytes + 64 * 1024,
                deadline: deadline)
        } catch {
            throw NetworkFetchError(error.description)
        }
        return try HTTPResponse(bytes, sizeLimit: maximumBytes)
    }
}

extension NetworkAccess {
    /// Plain HTTP GETs (`http://` only, at most three redirects, each bounded by
    /// `limits`) with a cache of `limits.maxFetchCacheEntries` answers: what `certkit --network` uses, to fetch a
    /// missing issuer (caIssuers), a CRL or an OCSP answer named by a certificate being evaluated.
    public static func http(limits: Limits = .default) -> NetworkAccess {
        NetworkAccess(fetcher: HTTPFetcher(), limits: limits)
    }
}
