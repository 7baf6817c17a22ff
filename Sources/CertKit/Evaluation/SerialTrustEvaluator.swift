import Dispatch
import Foundation
import Synchronization

/// The pattern people use with SecTrust today: one private serial queue, every evaluation on it (Docs/Architecture.md, "Concurrency").
///
/// Callable from any thread: synchronously (also from its own queue, without deadlock), with `async`/`await`,
/// or with a completion handler delivered on a queue the caller names (the `SecTrustEvaluateAsyncWithError`
/// shape). Evaluations never overlap, whatever the number of callers.
public final class SerialTrustEvaluator: Sendable {
    /// The evaluator every call is funnelled into.
    public let evaluator: TrustEvaluator
    private let queue: DispatchQueue
    /// Set on this evaluator's queue only: the key object is this evaluator's own, so finding it set means the
    /// caller runs on this evaluator's queue.
    private let queueKey = DispatchSpecificKey<Void>()
    /// Synchronous callers currently inside ``evaluate(_:)-(TrustEvaluation)``.
    private let pending = Atomic<Int>(0)

    /// Creates a serial evaluator over `backend`.
    public convenience init(backend: Backend, label: String = "certkit.trust.serial") {
        self.init(evaluator: TrustEvaluator(backend: backend), label: label)
    }

    /// Creates a serial evaluator over a backend implementation.
    package convenience init(backend: any TrustBackend, label: String = "certkit.trust.serial") {
        self.init(evaluator: TrustEvaluator(backend: backend), label: label)
    }

    /// Creates a serial evaluator funnelling into `evaluator`.
    public init(evaluator: TrustEvaluator, label: String = "certkit.trust.serial") {
        self.evaluator = evaluator
        self.queue = DispatchQueue(label: label)
        queue.setSpecific(key: queueKey, value: ())
    }

    /// True when the caller is already running on this evaluator's queue.
    private var isOnQueue: Bool { DispatchQueue.getSpecific(key: queueKey) != nil }

    /// Evaluates synchronously on the private queue and returns the report.
    ///
    /// A lone caller uses `queue.sync`, which runs the work on the caller's thread. When other callers are
    /// already waiting, the work is handed to the queue with `async` and the caller waits for its result:
    /// the queue's worker then drains evaluations back to back, instead of handing the queue from one blocked
    /// caller thread to the next (a wake-up per evaluation), so funnelling costs little throughput.
    /// Called from the queue itself, it evaluates in place.
    public func evaluate(_ evaluation: TrustEvaluation) -> TrustReport {
        if isOnQueue { return evaluator.evaluate(evaluation) }
        let waiting = pending.add(1, ordering: .acquiringAndReleasing).newValue
        defer { pending.subtract(1, ordering: .acquiringAndReleasing) }
        if waiting == 1 {
            // Nobody else is waiting: `sync` runs the work on this thread, with no hand-over at all.
            return queue.sync { evaluator.evaluate(evaluation) }
        }
        let slot = ReportSlot()
        queue.async { slot.fill(self.evaluator.evaluate(evaluation)) }
        return slot.wait()
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

/// A one-shot hand-over of a report from the queue to a waiting caller. Built on a pthread condition
/// (`NSCondition`) so ThreadSanitizer sees the hand-over.
///
/// `@unchecked Sendable` is safe: `report` is read and written only while `condition` is locked, and
/// `TrustReport` is `Sendable`.
private final class ReportSlot: @unchecked Sendable {
    private let condition = NSCondition()
    private var report: TrustReport?

    func fill(_ value: TrustReport) {
        condition.lock()
        report = value
        condition.signal()
        condition.unlock()
    }

    func wait() -> TrustReport {
        condition.lock()
        defer { condition.unlock() }
        while report == nil { condition.wait() }
        return report!
    }
}
