/// Everything derived from one evaluation's anchors, built once per anchor set and shared read-only by every
/// evaluation and thread that uses the same set (prepared state is built once: Docs/Architecture.md): the backend's
/// native store, the anchors' issuer index for path building, and the sets the policy needs.
final class AnchorContext: Sendable {
    /// The anchors, de-duplicated: app-supplied anchors, always-trust certificates, then (when not
    /// `anchorsOnly`) the system bundle.
    let anchors: [Certificate]
    /// The same, as a set.
    let anchorSet: Set<Certificate>
    /// The anchors the application supplied (``AnchorOrigin/appSupplied``; not the always-trust certificates, not
    /// the system bundle).
    let appSupplied: Set<Certificate>
    /// Certificates with an always-trust setting: success through one reads `proceed`.
    let alwaysTrusted: Set<Certificate>
    /// The anchors indexed by subject, for the chain builder.
    let index: IssuerIndex
    /// The backend's prepared store.
    let store: any PreparedAnchorStore

    init(anchors: [Certificate], alwaysTrust: [Certificate], system: [Certificate], backend: any TrustBackend)
        throws(BackendError)
    {
        var seen = Set<Certificate>()
        let app = (anchors + alwaysTrust).filter { seen.insert($0).inserted }
        let system = system.filter { seen.insert($0).inserted }
        self.anchors = app + system
        self.anchorSet = seen
        self.appSupplied = Set(anchors)
        self.alwaysTrusted = Set(alwaysTrust)
        self.index = IssuerIndex(certificates: self.anchors, foldedNames: true)
        self.store = try backend.prepareAnchors(self.anchors)
    }
}

/// Anchor contexts keyed by the evaluation's anchor inputs. A lookup hashes the inputs (one integer per
/// certificate: a certificate's hash of its whole DER is computed once and kept) and compares them with the
/// stored key, which is O(1) when callers pass the same arrays again (`Array ==` first compares the storage) —
/// the common case: one anchor set for the life of an app.
final class AnchorContextCache: Sendable {
    private struct Key: Hashable {
        let anchors: [Certificate]
        let alwaysTrust: [Certificate]
        let includeSystem: Bool
    }

    private let entries = CacheLock<[Key: AnchorContext]>([:])
    private let capacity: Int

    init(capacity: Int = 32) { self.capacity = max(1, capacity) }

    /// The context for these inputs, prepared with `backend` on first use; `system` gives the system roots when
    /// they are trusted too (nil: `anchorsOnly`). One cache serves one evaluator, whose system roots never change.
    func context(
        anchors: [Certificate], alwaysTrust: [Certificate], system: (() -> [Certificate])?, backend: any TrustBackend
    ) throws(BackendError) -> AnchorContext {
        let key = Key(anchors: anchors, alwaysTrust: alwaysTrust, includeSystem: system != nil)
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let context = try AnchorContext(
            anchors: anchors, alwaysTrust: alwaysTrust, system: system?() ?? [], backend: backend)
        entries.withLock { table in
            if table.count >= capacity { table.removeAll() }
            table[key] = context
        }
        return context
    }
}
