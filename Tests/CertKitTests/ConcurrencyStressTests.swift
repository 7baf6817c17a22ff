@testable import CertKit
import CertKitBackends
import Foundation
import Synchronization
import Testing

/// Many threads evaluate a mix of inputs on shared evaluators; every report must equal the single-threaded one.
///
/// Size: 8 threads × 2,000 evaluations by default (16,000 in all). The inputs mix both backends, two chains
/// (RSA, EC), three hosts, four verify dates (valid, leaf expired, leaf not yet valid, before the roots) and
/// three anchor sets: 144 distinct inputs. Each thread picks shared evaluators in turn: per backend, one with the
/// result cache off (every call really runs the chain builder and the library) and one with a 16-entry result
/// cache (constant hits, misses and evictions under contention). Under ThreadSanitizer (about 10× slower) each
/// thread does 400 evaluations (3,200 in all: still every input on every evaluator many times over);
/// `CERTKIT_STRESS_EVALUATIONS` overrides the per-thread count.
@Suite("Concurrency: stress")
struct ConcurrencyStressTests {
    struct Input: Sendable {
        let backend: String
        let evaluation: TrustEvaluation
    }

    static let threads = 8
    static let evaluationsPerThread =
        ProcessInfo.processInfo.environment["CERTKIT_STRESS_EVALUATIONS"].flatMap(Int.init)
        ?? (underThreadSanitizer ? 400 : 2_000)

    /// True when the ThreadSanitizer runtime is linked in (`swift test --sanitize=thread`).
    static let underThreadSanitizer = dlsym(nil, "__tsan_init") != nil

    static func inputs() throws -> [Input] {
        let rsaChain = try ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
        let ecChain = try ConcurrencyFixtures.certificates("valid-chain-ec/chain.pem")
        let rsaRoot = try ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem")
        let ecRoot = try ConcurrencyFixtures.certificates("valid-chain-ec/root-ec.pem")
        let anchorSets = [rsaRoot, ecRoot, rsaRoot + ecRoot]
        let dates = ["2030-06-01", "2031-07-01", "2029-12-01", "2028-01-01"].map(ConcurrencyFixtures.date)
        var inputs: [Input] = []
        for backend in BackendRegistry.standard.names {
            for chain in [rsaChain, ecChain] {
                for host in ["leaf.example", "LEAF.example", "other.example"] {
                    for date in dates {
                        for anchors in anchorSets {
                            inputs.append(Input(
                                backend: backend,
                                evaluation: ConcurrencyFixtures.evaluation(chain: chain, anchors: anchors, host: host, date: date)))
                        }
                    }
                }
            }
        }
        return inputs
    }

    @Test("8 threads, both backends, mixed inputs: every report equals the single-threaded one")
    func everyReportMatchesTheSerialOne() throws {
        let inputs = try Self.inputs()
        // The single-threaded truth, from fresh evaluators with no result cache.
        let expected = inputs.map { input in
            TrustEvaluator(backend: ConcurrencyFixtures.backend(input.backend), configuration: .uncached)
                .evaluate(input.evaluation)
        }
        #expect(Set(expected.map(\.result)).count >= 2) // the mix really has trusted and untrusted inputs

        var shared: [String: [TrustEvaluator]] = [:]
        for (name, backend) in ConcurrencyFixtures.backends {
            shared[name] = [
                TrustEvaluator(backend: backend, configuration: .uncached),
                TrustEvaluator(backend: backend, configuration: .init(resultCacheEnabled: true, resultCacheCapacity: 16)),
            ]
        }
        let evaluators = shared
        let mismatches = CacheLock<[String]>([])
        let completed = Atomic<Int>(0)
        let group = DispatchGroup()
        for thread in 0..<Self.threads {
            group.enter()
            Thread {
                defer { group.leave() }
                // A different stride per thread so threads hit different inputs at the same time.
                var index = thread * 17
                for step in 0..<Self.evaluationsPerThread {
                    index = (index + 7 + thread) % inputs.count
                    let input = inputs[index]
                    let evaluator = evaluators[input.backend]![step % 2]
                    let report = evaluator.evaluate(input.evaluation)
                    if report != expected[index] {
                        mismatches.withLock { $0.append("thread \(thread) input \(index): \(report.result) != \(expected[index].result)") }
                    }
                    completed.add(1, ordering: .relaxed)
                }
            }.start()
        }
        group.wait()
        let found = mismatches.withLock { $0 }
        #expect(found.isEmpty, "\(found.count) mismatches, first: \(found.prefix(3))")
        #expect(completed.load(ordering: .relaxed) == Self.threads * Self.evaluationsPerThread)
        let hits = evaluators.values.map { $0[1].cacheStatistics.resultHits }.reduce(0, +)
        #expect(hits > 0) // the cached evaluators did serve repeats
    }
}
