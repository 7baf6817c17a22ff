import Foundation

/// Builds candidate paths from a leaf through an unordered pool to any anchor (DESIGN §4).
///
/// Issuers are matched by name (byte-equal, then RFC 5280 §7.1 comparison) and filtered by AKI/SKI when both
/// are present. Candidates come breadth-first, so shorter paths come first; among the issuers of one
/// certificate, anchors come first, then AKI/SKI matches, then certificates valid at the verify date. No
/// certificate appears twice in a path (by DER, or by subject and key). Work is bounded by ``Limits``.
public struct ChainBuilder: Sendable {
    /// Bounds on the work one evaluation may do, so hostile input cannot make it slow.
    public struct Limits: Sendable, Hashable {
        /// The most certificates in a path, anchor included.
        public var maxDepth: Int
        /// The most partial paths expanded.
        public var maxExpansions: Int
        /// The most candidate paths handed out (each costs the backend one path verification).
        public var maxCandidates: Int
        /// The most partial paths waiting to be expanded.
        public var maxQueued: Int

        /// Creates limits.
        public init(maxDepth: Int = 10, maxExpansions: Int = 2_000, maxCandidates: Int = 32, maxQueued: Int = 20_000) {
            self.maxDepth = maxDepth
            self.maxExpansions = maxExpansions
            self.maxCandidates = maxCandidates
            self.maxQueued = maxQueued
        }
    }

    private let anchors: Set<Certificate>
    private let anchorIndex: IssuerIndex
    private let poolIndex: IssuerIndex
    private let date: Date
    private let limits: Limits
    private var queue: [[Certificate]]
    private var head = 0
    private var expansions = 0
    private var handedOut = 0

    /// The longest paths that ended without reaching an anchor, found so far (at most a few).
    public private(set) var deadEnds: [[Certificate]] = []
    /// True when a limit stopped the search before it was complete.
    public private(set) var limitReached = false

    /// Creates a builder for `leaf`.
    public init(leaf: Certificate, pool: [Certificate], anchors: [Certificate], date: Date, limits: Limits = Limits()) {
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
    public mutating func next() -> CandidatePath? {
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
            let issuers = path.count < limits.maxDepth ? issuers(of: last, excluding: path) : []
            if issuers.isEmpty {
                noteDeadEnd(path)
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
    private func issuers(of certificate: Certificate, excluding path: [Certificate]) -> [Certificate] {
        // Byte-equal names first; the RFC 5280 §7.1 comparison (string folding, costly) only when no
        // certificate in either group carries the issuer name byte for byte.
        let folded = !anchorIndex.hasExactSubject(certificate.issuer) && !poolIndex.hasExactSubject(certificate.issuer)
        return anchorIndex.issuers(of: certificate, excluding: path, at: date, foldedNames: folded)
            + poolIndex.issuers(of: certificate, excluding: path, at: date, foldedNames: folded)
    }

    /// The best incomplete path to report when no anchored path survives: the longest dead end.
    public var bestDeadEnd: [Certificate]? { deadEnds.first }

    private mutating func noteDeadEnd(_ path: [Certificate]) {
        // Breadth-first order means later dead ends are never shorter; keep the first longest.
        if let first = deadEnds.first, first.count >= path.count { return }
        deadEnds = [path]
    }
}

/// Issuer lookup over one group of certificates (the anchors, or the pool), by subject name.
struct IssuerIndex: Sendable {
    private struct Entry: Sendable {
        let certificate: Certificate
        let order: Int
    }

    private var bySubject: [NameKey: [Entry]] = [:]
    private var all: [Entry] = []

    /// Groups up to this size are searched linearly: comparing a few dozen names costs less than building a
    /// dictionary for each evaluation (the pool is indexed per evaluation; the anchors once per anchor set).
    static let linearSearchLimit = 64

    /// `unique: true` when the caller guarantees no certificate appears twice (skips de-duplication).
    init(certificates: [Certificate], unique: Bool = false) {
        var seen = Set<Certificate>(minimumCapacity: unique ? 0 : certificates.count)
        all.reserveCapacity(certificates.count)
        let indexed = certificates.count > Self.linearSearchLimit
        for (order, certificate) in certificates.enumerated() where unique || seen.insert(certificate).inserted {
            let entry = Entry(certificate: certificate, order: order)
            if indexed { bySubject[NameKey(certificate.subject), default: []].append(entry) }
            all.append(entry)
        }
    }

    /// The entries whose subject is `name`, byte for byte.
    private func exactSubject(_ name: DistinguishedName) -> [Entry] {
        if all.count > Self.linearSearchLimit { return bySubject[NameKey(name)] ?? [] }
        return all.filter { $0.certificate.hasSubject(exactly: name) }
    }

    /// True when some certificate of the group has `name` as its subject, byte for byte.
    func hasExactSubject(_ name: DistinguishedName) -> Bool {
        if all.count > Self.linearSearchLimit { return bySubject[NameKey(name)] != nil }
        return all.contains { $0.certificate.hasSubject(exactly: name) }
    }

    /// Issuer candidates of `certificate`, best first: AKI/SKI match, then valid at `date`, then input order.
    /// Candidates whose SKI contradicts the AKI, and anything already in `path` (by DER, or by subject and
    /// key), are left out. Names match byte for byte, else by the RFC 5280 §7.1 comparison.
    func issuers(
        of certificate: Certificate, excluding path: [Certificate], at date: Date, foldedNames: Bool = true
    ) -> [Certificate] {
        var entries = exactSubject(certificate.issuer)
        if entries.isEmpty && foldedNames {
            entries = all.filter { $0.certificate.subject.matches(certificate.issuer) }
        }
        if entries.isEmpty { return [] }
        let aki = certificate.extensions.authorityKeyIdentifier
        let ranked = entries.compactMap { entry -> (Entry, Int, Int)? in
            let candidate = entry.certificate
            let ski = candidate.extensions.subjectKeyIdentifier
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

/// A name's DER as a dictionary key, hashed in one pass over its bytes (an `[UInt8]` key hashes byte by byte).
struct NameKey: Hashable, Sendable {
    let der: [UInt8]

    init(_ name: DistinguishedName) { der = name.derEncoded }

    func hash(into hasher: inout Hasher) {
        der.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
