/// What the core asks of the network when an evaluation allows fetching (``TrustEvaluation/networkFetchAllowed``):
/// one HTTP GET of an `http://` URL found in a certificate being evaluated. The core has no networking of its own;
/// `CertKitSockets.HTTPFetcher` is the implementation the command line uses.
///
/// An implementation must refuse any scheme but `http`, follow no redirect to another scheme, give up at
/// `timeout`, and refuse a body larger than `maximumBytes`.
package protocol NetworkFetcher: Sendable {
    /// The body of a successful (200) GET of `url`.
    /// - Throws: ``NetworkFetchError`` for anything else (refused, timed out, not HTTP, too large, another status).
    func fetch(_ url: String, timeout: Duration, maximumBytes: Int) throws(NetworkFetchError) -> NetworkFetchResponse
}

/// A fetched body and how long it stays fresh.
package struct NetworkFetchResponse: Sendable, Hashable {
    /// The body.
    package var body: [UInt8]
    /// The `Cache-Control: max-age` in seconds, nil when absent (or `no-store`/`no-cache`): not cached.
    package var maxAge: Int?

    /// Creates a response.
    package init(body: [UInt8], maxAge: Int? = nil) {
        self.body = body
        self.maxAge = maxAge
    }
}

/// Why a fetch failed, in one line (e.g. `connection refused`, `timed out`, `HTTP 404`).
package struct NetworkFetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason.
    package var message: String

    /// Creates an error.
    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
