import Dispatch
import Foundation

/// The pattern people use with SecTrust today: one private serial queue, every evaluation on it (DESIGN §5).
///
/// Callable from any thread: synchronously (also from its own queue, without deadlock), with `async`/`await`,
/// or with a completion handler delivered on a queue the caller names (the `SecTrustEvaluateAsyncWithError`
/// shape). Evaluations never overlap, whatever the number of callers.
public final class SerialTrustEvaluator: Sendable {
    /// The evaluator every call is funnelled into.
    public let evaluator: TrustEvaluator
    private let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Creates a serial evaluator over `backend`.
    public convenience init(backend: any TrustBackend, label: String = "certkit.trust.serial") {
        self.init(evaluator: TrustEvaluator(backend: backend), label: label)
    }

    /// Creates a serial evaluator funnelling into `evaluator`.
    public init(evaluator: TrustEvaluator, label: String = "certkit.trust.serial") {
        self.evaluator = evaluator
        self.queue = DispatchQueue(label: label)
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    /// True when the caller is already running on this evaluator's queue.
    private var isOnQueue: Bool { DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) }

    /// Evaluates synchronously on the private queue and returns the report.
    public func evaluate(_ evaluation: TrustEvaluation) -> TrustReport {
        if isOnQueue { return evaluator.evaluate(evaluation) }
        return queue.sync { evaluator.evaluate(evaluation) }
    }

    /// Evaluates on the private queue without blocking a thread of the caller's.
    public func evaluate(_ evaluation: TrustEvaluation) async -> TrustReport {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.evaluator.evaluate(evaluation)) }
        }
    }

    /// Evaluates on the private queue and delivers the report on `resultQueue`, as
    /// `SecTrustEvaluateAsyncWithError(trust, queue, result)` does.
    public func evaluate(
        _ evaluation: TrustEvaluation, resultQueue: DispatchQueue,
        completion: @escaping @Sendable (TrustReport) -> Void
    ) {
        queue.async {
            let report = self.evaluator.evaluate(evaluation)
            resultQueue.async { completion(report) }
        }
    }
}
