@testable import CertKit
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Synchronization
import Testing

/// The real OpenSSL backend, instrumented (a ``ForwardingBackend`` whose signature checks go through the probe):
/// counts verifications in flight (to prove the serial evaluator never overlaps them) and can call back into a
/// serial evaluator from inside a verification, i.e. from the serial evaluator's own queue.
final class InFlightProbe: Sendable {
    let inFlight = Atomic<Int>(0)
    let maxInFlight = Atomic<Int>(0)
    /// When set, the first verification calls `reentry` synchronously (once).
    let reentry = CacheLock<(@Sendable () -> Void)?>(nil)

    /// The instrumented backend. Instrumented in its signature checks: every evaluation verifies a signature (the
    /// library's verdict runs only in the audit mode).
    var backend: ForwardingBackend {
        ForwardingBackend(OpenSSLBackend(), overrides: .init(verifySignature: { input, real throws(BackendError) in
            let now = self.inFlight.add(1, ordering: .sequentiallyConsistent).newValue
            self.maxInFlight.max(now, ordering: .sequentiallyConsistent)
            defer { self.inFlight.subtract(1, ordering: .sequentiallyConsistent) }
            if let body = self.reentry.withLock({ slot -> (@Sendable () -> Void)? in
                defer { slot = nil }
                return slot
            }) {
                body()
            }
            return try real.verifySignature(input)
        }))
    }
}

@Suite("Concurrency: SerialTrustEvaluator")
struct ConcurrencySerialEvaluatorTests {
    let valid: TrustEvaluation
    let wrongHost: TrustEvaluation
    let expectedValid: TrustReport
    let expectedWrongHost: TrustReport

    init() throws {
        let chain = try ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
        let root = try ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem")
        valid = ConcurrencyFixtures.evaluation(chain: chain, anchors: root)
        wrongHost = ConcurrencyFixtures.evaluation(chain: chain, anchors: root, host: "other.example")
        let reference = TrustEvaluator(backend: OpenSSLBackend(), configuration: .uncached)
        expectedValid = reference.evaluate(valid)
        expectedWrongHost = reference.evaluate(wrongHost)
    }

    private func expected(_ index: Int) -> (TrustEvaluation, TrustReport) {
        index % 2 == 0 ? (valid, expectedValid) : (wrongHost, expectedWrongHost)
    }

    @Test("synchronous calls from 8 threads: correct reports, never two evaluations at once")
    func syncFromManyThreads() {
        let probe = InFlightProbe()
        let serial = SerialTrustEvaluator(evaluator: TrustEvaluator(backend: probe.backend, configuration: .uncached))
        let wrong = Atomic<Int>(0)
        let group = DispatchGroup()
        for thread in 0..<8 {
            group.enter()
            Thread {
                defer { group.leave() }
                for step in 0..<40 {
                    let (evaluation, report) = expected(thread + step)
                    if serial.evaluate(evaluation) != report { wrong.add(1, ordering: .relaxed) }
                }
            }.start()
        }
        group.wait()
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(probe.maxInFlight.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test("a synchronous call from the evaluator's own queue does not deadlock")
    func syncFromOwnQueue() {
        let probe = InFlightProbe()
        let serial = SerialTrustEvaluator(evaluator: TrustEvaluator(backend: probe.backend, configuration: .uncached))
        let inner = CacheLock<TrustReport?>(nil)
        let wrongHost = self.wrongHost
        // The first verification runs on the serial queue and evaluates again, synchronously, from there.
        probe.reentry.withLock { $0 = { inner.withLock { $0 = serial.evaluate(wrongHost) } } }
        let done = DispatchSemaphore(value: 0)
        let outer = CacheLock<TrustReport?>(nil)
        let valid = self.valid
        Thread {
            outer.withLock { $0 = serial.evaluate(valid) }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 30) == .success, "deadlock: the nested call never returned")
        #expect(outer.withLock { $0 } == expectedValid)
        #expect(inner.withLock { $0 } == expectedWrongHost)
    }

    @Test("async/await from 32 tasks: correct reports, never two evaluations at once")
    func asyncFromManyTasks() async {
        let probe = InFlightProbe()
        let serial = SerialTrustEvaluator(evaluator: TrustEvaluator(backend: probe.backend, configuration: .uncached))
        let results = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
            for task in 0..<32 {
                let (evaluation, report) = expected(task)
                group.addTask { await serial.evaluate(evaluation) == report }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 32)
        #expect(results.allSatisfy { $0 })
        #expect(probe.maxInFlight.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test("completion handlers are delivered on the named queue, from many callers")
    func completionOnNamedQueue() {
        let serial = SerialTrustEvaluator(backend: OpenSSLBackend())
        let resultQueue = DispatchQueue(label: "certkit.tests.results")
        let key = DispatchSpecificKey<String>()
        resultQueue.setSpecific(key: key, value: "results")
        let callers = 16
        let delivered = CacheLock<[(onQueue: Bool, correct: Bool)]>([])
        let group = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: callers) { caller in
            group.enter()
            let (evaluation, report) = expected(caller)
            serial.evaluate(evaluation, resultQueue: resultQueue) { got in
                let onQueue = DispatchQueue.getSpecific(key: key) == "results"
                delivered.withLock { $0.append((onQueue, got == report)) }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        let all = delivered.withLock { $0 }
        #expect(all.count == callers)
        #expect(all.allSatisfy { $0.onQueue && $0.correct })
    }
}
