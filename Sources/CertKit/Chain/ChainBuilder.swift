import Foundation

/// Builds candidate paths from a leaf through an unordered pool to any anchor (Docs/Architecture.md, "Chain building").
///
/// Issuers are matched by name (byte-equal, then RFC 5280 §7.1 comparison) and filtered by AKI/SKI when both
/// are present. Candidates come breadth-first, so shorter paths come first; among the issuers of one
/// certificate, anchors come first, then AKI/SKI matches, then certificates valid at the verify date. No
/// certificate appears twice in a path (by DER, or by subject and key). Work is bounded by the path-building
/// bounds of ``Limits`` (depth, expansions, candidates, queue, issuer comparisons); each lookup by name is a
/// dictionary lookup (or a scan of a few dozen certificates).
package struct ChainBuilder: Sendable {
    /// The path-building bounds are part of the library-wide ``CertKit/Limits``.
    package typealias Limits = CertKit.Limits

    private let anchors: Set<Certificate>
    private var anchorIndex: IssuerIndex
    private var poolIndex: IssuerIndex
    private let date: Date
    private let limits: Limits
    private var queue: [[Certificate]]
    private var head = 0
    private var expansions = 0
    private var handedOut = 0
    private var comparisons = 0

    /// The longest paths that ended without reaching an anchor, found so far (at most a few).
    package private(set) var deadEnds: [[Certificate]] = []
    /// True when a limit stopped the search before it was complete.
    package private(set) var limitReached = false

    /// Creates a builder for `leaf`.
    package init(leaf: Certificate, pool: [Certificate], anchors: [Certificate], date: Date, limits: Limits = Limits()) {
        self.init(
            leaf: leaf, pool: pool, anchorSet: Set(anchors),
            anchorIndex: IssuerIndex(certificates: anchors), date: date, limits: limits, poolIsUnique: false)
    }

    /// Creates a builder over an anchor set and index prepared once (see `AnchorContext`). With `poolIsUnique`
    /// the caller guarantees the pool holds no anchor and no certificate twice.
    init(
        leaf: Certificate, pool: [Certificate], anchorSet: Set<Certificate>, anchorIndex: IssuerIndex, date: Date,
        limits: Limits, poolIsUnique: Bool
    ) {
        self.anchors = anchorSet
        self.anchorIndex = anchorIndex
        self.poolIndex = poolIsUnique
            ? IssuerIndex(certificates: pool, unique: true)
            : IssuerIndex(certificates: pool.filter { !anchorSet.contains($0) })
        self.date = date
        self.limits = limits
        self.queue = [[leaf]]
    }

    /// The next candidate path that ends at an anchor, or nil when there is none left (or a limit was hit).
    package mutating func next() -> CandidatePath? {
        while head < queue.count {
            if handedOut >= limits.maxCandidates || expansions >= limits.maxExpansions {
                limitReached = true
                return nil
            }
            let path = queue[head]
            head += 1
            guard let last = path.last else { continue }
            if anchors.contains(last) {
                handedOut += 1
                return CandidatePath(certificates: path, endsAtAnchor: true)
            }
            expansions += 1
            let issuers = issuers(of: last, excluding: path)
            if limitReached { return nil }
            if issuers.isEmpty || path.count >= limits.maxDepth {
                noteDeadEnd(path, cutByDepth: !issuers.isEmpty)
                continue
            }
            for issuer in issuers {
                guard queue.count - head < limits.maxQueued else {
                    limitReached = true
                    break
                }
                queue.append(path + [issuer])
            }
        }
        return nil
    }

    /// Issuer candidates of `certificate`: anchors first, then the pool, each ranked by ``IssuerIndex``.
    /// Sets ``limitReached`` (and returns nothing) when examining them would exceed the comparison budget.
    private mutating func issuers(of certificate: Certificate, excluding path: [Certificate]) -> [Certificate] {
        // Byte-equal names first; the RFC 5280 §7.1 comparison (folded names) only when no certificate in
        // either group carries the issuer name byte for byte.
        var fromAnchors = anchorIndex.exactSubject(certificate.issuer)
        var fromPool = poolIndex.exactSubject(certificate.issuer)
        if fromAnchors.isEmpty && fromPool.isEmpty {
            let key = FoldedNameKey(certificate.issuer)
            fromAnchors = anchorIndex.foldedSubject(key)
            fromPool = poolIndex.foldedSubject(key)
        }
        let examined = fromAnchors.count + fromPool.count
        guard comparisons + examined <= limits.maxIssuerComparisons else {
            limitReached = true
            return []
        }
        comparisons += examined
        return IssuerIndex.rank(fromAnchors, issuing: certificate, excluding: path, at: date)
            + IssuerIndex.rank(fromPool, issuing: certificate, excluding: path, at: date)
    }

    /// The best incomplete path to report when no anchored path survives: the longest dead end.
    package var bestDeadEnd: [Certificate]? { deadEnds.first }

    /// True when ``bestDeadEnd`` stops only because it reached the depth limit: its last certificate has issuers.
    package private(set) var bestDeadEndIsCutByDepth = false

    private mutating func noteDeadEnd(_ path: [Certificate], cutByDepth: Bool) {
        // Breadth-first order means later dead ends are never shorter; keep the first longest.
        if let first = deadEnds.first, first.count >= path.count { return }
        deadEnds = [path]
        bestDeadEndIsCutByDepth = cutByDepth
    }
}

/// Issuer lookup over one group of certificates (the anchors, or the pool), by subject name: byte-equal, or
/// folded (RFC 5280 §7.1) through a dictionary built on the first folded lookup (or up front, for anchors).
struct IssuerIndex: Sendable {
    struct Entry: Sendable {
        let certificate: Certificate
        let order: Int
    }

    /// The last entry (index into `all`) of each subject name; `previousWithSubject[i]` is the entry before `all[i]`
    /// with the same subject, or -1. One dictionary slot per distinct name and no array per name: indexing a pool
    /// of 100,000 certificates costs one hash and no allocation per certificate.
    private var lastWithSubject: [EncodingKey: Int] = [:]
    private var previousWithSubject: [Int] = []
    private var byFoldedSubject: [FoldedNameKey: [Entry]]?
    private var all: [Entry] = []

    /// Groups up to this size are searched linearly by exact name: comparing a few dozen names costs less than
    /// building a dictionary for each evaluation (the pool is indexed per evaluation; the anchors once per set).
    static let linearSearchLimit = 64

    /// `unique: true` when the caller guarantees no certificate appears twice (skips de-duplication);
    /// `foldedNames: true` builds the folded-name dictionary now (for indexes built once and shared).
    init(certificates: [Certificate], unique: Bool = false, foldedNames: Bool = false) {
        var seen = Set<Certificate>(minimumCapacity: unique ? 0 : certificates.count)
        all.reserveCapacity(certificates.count)
        let indexed = certificates.count > Self.linearSearchLimit
        if indexed {
            lastWithSubject.reserveCapacity(certificates.count)
            previousWithSubject.reserveCapacity(certificates.count)
        }
        for (order, certificate) in certificates.enumerated() where unique || seen.insert(certificate).inserted {
            if indexed {
                previousWithSubject.append(lastWithSubject.updateValue(all.count, forKey: EncodingKey(certificate.subject.derEncoded)) ?? -1)
            }
            all.append(Entry(certificate: certificate, order: order))
        }
        if foldedNames { buildFoldedIndex() }
    }

    /// The entries whose subject is `name`, byte for byte.
    func exactSubject(_ name: DistinguishedName) -> [Entry] {
        guard all.count > Self.linearSearchLimit else { return all.filter { $0.certificate.hasSubject(exactly: name) } }
        var entries: [Entry] = []
        var index = lastWithSubject[EncodingKey(name.derEncoded)] ?? -1
        while index >= 0 {
            entries.append(all[index])
            index = previousWithSubject[index]
        }
        return entries.reversed()
    }

    /// The entries whose subject matches `key` by the RFC 5280 §7.1 comparison.
    mutating func foldedSubject(_ key: FoldedNameKey) -> [Entry] {
        if byFoldedSubject == nil { buildFoldedIndex() }
        return byFoldedSubject?[key] ?? []
    }

    private mutating func buildFoldedIndex() {
        var index: [FoldedNameKey: [Entry]] = [:]
        for entry in all { index[FoldedNameKey(entry.certificate.subject), default: []].append(entry) }
        byFoldedSubject = index
    }

    /// `entries` ranked as issuers of `certificate`, best first: AKI/SKI match, then valid at `date`, then input
    /// order. Candidates whose SKI contradicts the AKI, and anything already in `path` (by DER, or by subject and
    /// key), are left out.
    static func rank(
        _ entries: [Entry], issuing certificate: Certificate, excluding path: [Certificate], at date: Date
    ) -> [Certificate] {
        if entries.isEmpty { return [] }
        let aki = certificate.extensionsView.authorityKeyIdentifier
        let ranked = entries.compactMap { entry -> (Entry, Int, Int)? in
            let candidate = entry.certificate
            let ski = candidate.extensionsView.subjectKeyIdentifier
            if let aki, let ski, aki != ski { return nil }
            if path.contains(where: { $0 == candidate || ($0.subject == candidate.subject && $0.publicKey == candidate.publicKey) }) {
                return nil
            }
            let keyMatch = (aki != nil && ski == aki) ? 0 : 1
            return (entry, keyMatch, candidate.isValid(at: date) ? 0 : 1)
        }
        if ranked.count == 1 { return [ranked[0].0.certificate] }
        return ranked.sorted { lhs, rhs in
            (lhs.1, lhs.2, lhs.0.order) < (rhs.1, rhs.2, rhs.0.order)
        }.map(\.0.certificate)
    }
}
