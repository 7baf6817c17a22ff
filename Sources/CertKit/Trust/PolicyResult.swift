/// The outcome of one policy of an evaluation (one entry of SecTrust's per-policy result details).
public struct PolicyResult: Sendable, Hashable {
    /// The policy.
    public var policy: TrustPolicy
    /// Its result on the report's chain.
    public var result: TrustResultType
    /// The checks that failed under it, per certificate of the chain.
    public var checks: [Set<TrustCheck>]
    /// Its error, nil when it passed.
    public var error: TrustError?

    /// Creates a policy result.
    package init(policy: TrustPolicy, result: TrustResultType, checks: [Set<TrustCheck>], error: TrustError?) {
        self.policy = policy
        self.result = result
        self.checks = checks
        self.error = error
    }
}
