import Foundation

/// Prepared anchor stores, built once per anchor set and shared (DESIGN §1: prepared state is built once).
/// Lookups compare the anchor arrays for equality, which is O(1) when callers reuse the same array.
final class AnchorStoreCache: Sendable {
    private struct Entry {
        let anchors: [Certificate]
        let store: any PreparedAnchorStore
    }

    private let entries = CacheLock<[Int: [Entry]]>([:])
    private let capacity: Int

    init(capacity: Int = 32) { self.capacity = capacity }

    /// The store for `anchors`, prepared with `backend` on first use.
    func store(for anchors: [Certificate], backend: any TrustBackend) throws(BackendError) -> any PreparedAnchorStore {
        let key = Self.cheapKey(anchors)
        if let hit = entries.withLock({ $0[key]?.first(where: { $0.anchors == anchors })?.store }) { return hit }
        let store = try backend.prepareAnchors(anchors)
        entries.withLock { table in
            if table.values.reduce(0, { $0 + $1.count }) >= capacity { table.removeAll() }
            table[key, default: []].append(Entry(anchors: anchors, store: store))
        }
        return store
    }

    /// A hash over the count, each DER's length and its last bytes (the signature: high entropy), so hashing
    /// a large anchor set costs little.
    static func cheapKey(_ anchors: [Certificate]) -> Int {
        var hasher = Hasher()
        hasher.combine(anchors.count)
        for anchor in anchors {
            let der = anchor.derEncoded
            hasher.combine(der.count)
            hasher.combine(der.suffix(16).reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) })
        }
        return hasher.finalize()
    }
}
