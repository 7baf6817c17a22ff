/// One URL an evaluation asked the network for, and what came of it (``TrustReport/fetches``).
public struct NetworkFetchRecord: Sendable, Hashable {
    /// The URL, as found in a certificate.
    public var url: String
    /// Why nothing usable came back (refused, timed out, too large, ...), nil when a body was fetched.
    public var problem: String?
    /// True when the body came from the cache shared by evaluations.
    public var fromCache: Bool
    /// What the body held, e.g. `1 issuer certificate added`, `not a certificate: ...`.
    public var outcome: String?

    /// Creates a record.
    package init(url: String, problem: String? = nil, fromCache: Bool = false, outcome: String? = nil) {
        self.url = url
        self.problem = problem
        self.fromCache = fromCache
        self.outcome = outcome
    }
}
