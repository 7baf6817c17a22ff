import CertKit

/// Whether reports from different backends say the same thing: same result, same error code, same chain and
/// the same failed checks on each certificate. Notes, paths tried and messages may differ.
enum BackendComparison {
    static func agree(_ reports: [TrustReport]) -> Bool {
        // One report agrees with itself (and is not copied to find that out).
        guard reports.count > 1, let first = reports.first else { return true }
        return reports.dropFirst().allSatisfy { other in
            other.result == first.result && other.error?.code == first.error?.code && other.chain == first.chain
                && normalizedChecks(other) == normalizedChecks(first)
        }
    }

    private static func normalizedChecks(_ report: TrustReport) -> [Set<TrustCheck>] {
        (0..<report.chain.count).map { $0 < report.checks.count ? report.checks[$0] : [] }
    }
}
