import Foundation

/// Reports of earlier evaluations, reused when the same inputs are evaluated again at a verify date inside the
/// same validity window (see ``ResultCacheKey`` and ``ResultCacheValidityWindow``).
///
/// Bounded (least recently used inputs are evicted first; each input keeps its few most recent windows) and
/// thread-safe: one lock (``CacheLock``) guards the table and the hit/miss counters.
final class ResultCache: Sendable {
    private struct Entry {
        let window: ResultCacheValidityWindow
        let report: TrustReport
    }

    private struct State {
        var table: LRUCache<ResultCacheKey, [Entry]>
        var hits = 0
        var misses = 0
    }

    /// How many windows (verify-date ranges) one input keeps.
    static let windowsPerKey = 4

    private let state: CacheLock<State>

    /// Creates a cache holding at most `capacity` distinct inputs.
    init(capacity: Int) {
        state = CacheLock(State(table: LRUCache(capacity: capacity)))
    }

    /// The cached report for `key` valid at `date` (with its verify date set to `date`), counting a hit or a miss.
    func report(for key: ResultCacheKey, at date: Date) -> TrustReport? {
        let found: TrustReport? = state.withLock { state in
            let entry = state.table.value(for: key)?.first { $0.window.contains(date) }
            if entry == nil { state.misses += 1 } else { state.hits += 1 }
            return entry?.report
        }
        guard var report = found else { return nil }
        report.verifyDate = date
        return report
    }

    /// Stores `report` for `key`, valid throughout `window`.
    func insert(_ report: TrustReport, for key: ResultCacheKey, window: ResultCacheValidityWindow) {
        state.withLock { state in
            var entries = state.table.value(for: key) ?? []
            entries.removeAll { $0.window == window }
            entries.insert(Entry(window: window, report: report), at: 0)
            if entries.count > Self.windowsPerKey { entries.removeLast(entries.count - Self.windowsPerKey) }
            state.table.set(entries, for: key)
        }
    }

    /// Hits, misses and the number of inputs held.
    var statistics: (hits: Int, misses: Int, entries: Int) {
        state.withLock { ($0.hits, $0.misses, $0.table.count) }
    }
}
