/// Everything derived from one evaluation's anchors, built once per anchor set and shared read-only by every
/// evaluation and thread that uses the same set (DESIGN §1: prepared state is built once): the backend's
/// native store, the anchors' issuer index for path building, and the sets the policy needs.
final class AnchorContext: Sendable {
    /// The anchors, de-duplicated: app-supplied anchors, always-trust certificates, then (when not
    /// `anchorsOnly`) the system bundle.
    let anchors: [Certificate]
    /// The same, as a set.
    let anchorSet: Set<Certificate>
    /// The anchors the application supplied (not the system bundle): the Apple profile rules apply to them.
    let appSupplied: Set<Certificate>
    /// Certificates with an always-trust setting: success through one reads `proceed`.
    let alwaysTrusted: Set<Certificate>
    /// The anchors indexed by subject, for the chain builder.
    let index: IssuerIndex
    /// The backend's prepared store.
    let store: any PreparedAnchorStore

    init(anchors: [Certificate], alwaysTrust: [Certificate], includeSystem: Bool, backend: any TrustBackend)
        throws(BackendError)
    {
        var seen = Set<Certificate>()
        let app = (anchors + alwaysTrust).filter { seen.insert($0).inserted }
        let system = includeSystem ? SystemTrustStore.certificates.filter { seen.insert($0).inserted } : []
        self.anchors = app + system
        self.anchorSet = seen
        self.appSupplied = Set(app)
        self.alwaysTrusted = Set(alwaysTrust)
        self.index = IssuerIndex(certificates: self.anchors, foldedNames: true)
        self.store = try backend.prepareAnchors(self.anchors)
    }
}

/// Anchor contexts keyed by the evaluation's anchor inputs. Lookups compare the input arrays, which is O(1)
/// when callers pass the same arrays again (the common case: one anchor set for the life of an app).
final class AnchorContextCache: Sendable {
    private struct Key: Equatable {
        let anchors: [Certificate]
        let alwaysTrust: [Certificate]
        let includeSystem: Bool
    }

    private struct Entry {
        let key: Key
        let context: AnchorContext
    }

    private let entries = CacheLock<[Int: [Entry]]>([:])
    private let capacity: Int

    init(capacity: Int = 32) { self.capacity = max(1, capacity) }

    /// The context for these inputs, prepared with `backend` on first use.
    func context(
        anchors: [Certificate], alwaysTrust: [Certificate], includeSystem: Bool, backend: any TrustBackend
    ) throws(BackendError) -> AnchorContext {
        let key = Key(anchors: anchors, alwaysTrust: alwaysTrust, includeSystem: includeSystem)
        // Fast path: the same arrays as a recent call (same storage; the cache holds them, so the address
        // cannot belong to another array). `==` then confirms in O(1) through the storage identity.
        let address = Self.storageAddress(anchors)
        if let hit = recent.withLock({ list in
            list.first(where: { $0.address == address && $0.entry.key == key })?.entry.context
        }) {
            return hit
        }
        let hash = Self.cheapHash(key)
        if let hit = entries.withLock({ $0[hash]?.first(where: { $0.key == key }) }) {
            remember(hit, address: address)
            return hit.context
        }
        let context = try AnchorContext(
            anchors: anchors, alwaysTrust: alwaysTrust, includeSystem: includeSystem, backend: backend)
        let entry = Entry(key: key, context: context)
        entries.withLock { table in
            if table.values.reduce(0, { $0 + $1.count }) >= capacity { table.removeAll() }
            table[hash, default: []].append(entry)
        }
        remember(entry, address: address)
        return context
    }

    /// The most recently used entries, looked up by the anchors array's storage address.
    private let recent = CacheLock<[(address: UInt, entry: Entry)]>([])

    private func remember(_ entry: Entry, address: UInt) {
        recent.withLock { list in
            list.removeAll { $0.address == address }
            list.insert((address, entry), at: 0)
            if list.count > 4 { list.removeLast() }
        }
    }

    private static func storageAddress(_ array: [Certificate]) -> UInt {
        array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// A hash over the counts and each certificate's own cheap hash (its length and last bytes).
    private static func cheapHash(_ key: Key) -> Int {
        var hasher = Hasher()
        hasher.combine(key.includeSystem)
        hasher.combine(key.anchors.count)
        for anchor in key.anchors { hasher.combine(anchor) }
        hasher.combine(key.alwaysTrust)
        return hasher.finalize()
    }
}
