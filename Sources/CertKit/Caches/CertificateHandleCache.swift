
/// A bounded, thread-safe cache of a backend's parsed certificate handles, keyed by the certificate's DER.
///
/// The key is the DER itself (``EncodingKey``: every byte hashed in one pass, equality on the bytes). (Keying by
/// the SHA-256 of the DER, as first planned, cost more per lookup than the rest of the evaluation's bookkeeping: a
/// digest per certificate per call.)
///
/// Backends use it so that intermediates and anchors seen again are not re-imported by the library on every
/// verification. Least recently used handles are evicted first; a capacity of 0 disables the cache (every
/// lookup parses). Handles come back shared across threads, so a handle type must be `Sendable`: each backend's
/// handle class states why (the libraries' parsed certificate and key objects are safe to read from several
/// threads, and the backend only reads them).
package final class CertificateHandleCache<Handle: AnyObject & Sendable>: Sendable {
    private struct State {
        var table: LRUCache<EncodingKey, Handle>
        var hits = 0
        var misses = 0
    }

    /// The most handles kept; 0 means the cache is off.
    package let capacity: Int
    private let state: CacheLock<State>

    /// Creates a cache of at most `capacity` handles.
    package init(capacity: Int = 256) {
        self.capacity = max(0, capacity)
        self.state = CacheLock(State(table: LRUCache(capacity: max(0, capacity))))
    }

    /// The cached handle for `der`, or the one `make` parses (then cached). `make` runs outside the lock.
    package func handle<E: Error>(for der: [UInt8], make: ([UInt8]) throws(E) -> Handle) throws(E) -> Handle {
        guard capacity > 0 else { return try make(der) }
        let key = EncodingKey(der)
        if let hit = state.withLock({ state -> Handle? in
            let found = state.table.value(for: key)
            if found == nil { state.misses += 1 } else { state.hits += 1 }
            return found
        }) {
            return hit
        }
        let made = try make(der)
        state.withLock { $0.table.set(made, for: key) }
        return made
    }

    /// Lookups answered from the cache, lookups that parsed, and handles held.
    package var statistics: (hits: Int, misses: Int, entries: Int) {
        state.withLock { ($0.hits, $0.misses, $0.table.count) }
    }
}
