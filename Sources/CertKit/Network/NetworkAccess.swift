import Foundation

/// A `NetworkFetcher` and the cache of what it fetched, shared by every evaluation (and evaluator) given it.
///
/// The cache holds at most ``Limits/maxFetchCacheEntries`` bodies, each for as long as its HTTP freshness
/// (`Cache-Control: max-age`) says or, for an OCSP response or a CRL without it, until its nextUpdate; least
/// recently used first out; a body with neither is not kept.
public final class NetworkAccess: Sendable {
    /// The fetcher.
    package let fetcher: any NetworkFetcher
    private let cache: CacheLock<LRUCache<String, Entry>>

    private struct Entry: Sendable {
        var body: [UInt8]
        var expires: Date
    }

    /// Creates access through `fetcher` with a cache of `limits.maxFetchCacheEntries` entries (`CertKitSockets`
    /// makes the public one: `NetworkAccess.http()`).
    package init(fetcher: any NetworkFetcher, limits: Limits = .default) {
        self.fetcher = fetcher
        self.cache = CacheLock(LRUCache(capacity: max(1, limits.maxFetchCacheEntries)))
    }

    /// The cached body of `url` when still fresh at `now`.
    func cached(_ url: String, now: Date = Date()) -> [UInt8]? {
        cache.withLock { entries in
            guard let entry = entries.value(for: url), entry.expires > now else { return nil }
            return entry.body
        }
    }

    /// Remembers `response` for `url` when it carries a freshness lifetime.
    func remember(_ response: NetworkFetchResponse, for url: String, now: Date = Date()) {
        guard let maxAge = response.maxAge, maxAge > 0 else { return }
        remember(response.body, for: url, until: now.addingTimeInterval(TimeInterval(maxAge)), now: now)
    }

    /// Remembers `body` for `url` until `expiry` (an OCSP response's or CRL's nextUpdate), unless it is already
    /// cached or `expiry` has passed.
    func remember(_ body: [UInt8], for url: String, until expiry: Date, now: Date = Date()) {
        guard expiry > now else { return }
        cache.withLock { entries in
            if let entry = entries.value(for: url), entry.expires > now { return }
            entries.set(Entry(body: body, expires: expiry), for: url)
        }
    }
}
