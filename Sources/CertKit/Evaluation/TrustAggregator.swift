import Foundation

/// Turns per-certificate failures into one result and one error, as trustd does (Docs/TrustModel.md).
package enum TrustAggregator {
    /// The result type for `checks`: fatal and deny are never downgraded; with no failure the result is
    /// `proceed` when an always-trust setting made the path trusted, else `unspecified`; recoverable failures
    /// covered by `exceptions` give `proceed`.
    package static func result(
        checks: [Set<TrustCheck>], leafSHA256: [UInt8]?, alwaysTrusted: Bool, exceptions: TrustExceptions?
    ) -> TrustResultType {
        let failures = checks.reduce(into: Set<TrustCheck>()) { $0.formUnion($1) }
        if failures.contains(.backendError) { return .otherError }
        if failures.isEmpty { return alwaysTrusted ? .proceed : .unspecified }
        let worst = failures.map(\.severity).max() ?? .recoverable
        switch worst {
        case .fatal: return .fatalTrustFailure
        case .deny: return .deny
        case .recoverable:
            if let exceptions, let leafSHA256, exceptions.covers(leafSHA256: leafSHA256, failures: failures) {
                return .proceed
            }
            return .recoverableTrustFailure
        }
    }

    /// The single reported failure: highest priority, ties to the lowest certificate index, then the order of
    /// `TrustCheck.allCases`.
    package static func primaryFailure(_ checks: [Set<TrustCheck>]) -> (check: TrustCheck, index: Int)? {
        var best: (check: TrustCheck, index: Int, rank: Int)?
        for (index, set) in checks.enumerated() {
            for check in set {
                let rank = Int(check.ordinal)
                guard let current = best else {
                    best = (check, index, rank)
                    continue
                }
                if check.priority > current.check.priority
                    || (check.priority == current.check.priority && index < current.index)
                    || (check.priority == current.check.priority && index == current.index && rank < current.rank) {
                    best = (check, index, rank)
                }
            }
        }
        return best.map { ($0.check, $0.index) }
    }
}
