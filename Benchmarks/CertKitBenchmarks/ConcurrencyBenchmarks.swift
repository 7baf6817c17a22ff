import CertKit
import Foundation

/// Throughput with 1…8 concurrent callers: the raw library, the concurrent evaluator, the serial evaluator, and
/// one direct caller. Result caches are off (every call evaluates); anchor stores and the parsed-certificate
/// cache are shared, as in an app. After the rows, the scaling against one direct caller is printed.
struct ConcurrencyBenchmarks {
    let measurement: Measurement
    let report: BenchmarkReport
    let callerCounts = [1, 2, 4, 8]

    func run(_ workload: ChainWorkload, backend kind: BackendKind) {
        let benchmark = "throughput \(workload.name)"
        let raw = kind.raw(workload)
        let evaluation = workload.evaluation()
        let evaluator = TrustEvaluator(backend: kind.make(handleCache: true), configuration: .verifyingEverySignature)
        let serial = SerialTrustEvaluator(evaluator: evaluator)
        let direct = report.add(row(benchmark, kind, "certkit: one direct caller", measurement.nanosecondsPerOperation {
            _ = evaluator.evaluate(evaluation)
        }))
        var scaling: [String] = []
        for callers in callerCounts {
            let rawRow = report.add(row(benchmark, kind, "raw C: \(callers) callers", throughput(callers) {
                _ = raw.prepared()
            }))
            let concurrent = report.add(row(benchmark, kind, "certkit concurrent: \(callers) callers", throughput(callers) {
                _ = evaluator.evaluate(evaluation)
            }), baseline: rawRow)
            let serialRow = report.add(row(benchmark, kind, "certkit serial: \(callers) callers", throughput(callers) {
                _ = serial.evaluate(evaluation)
            }), baseline: rawRow)
            scaling.append(String(
                format: "%d callers: concurrent %.2f×, serial %.2f× one direct caller's evaluations/s", callers,
                concurrent.opsPerS / direct.opsPerS, serialRow.opsPerS / direct.opsPerS))
        }
        for line in scaling { emit("  scaling \(kind): \(line)") }
    }

    private func throughput(_ callers: Int, _ operation: @escaping @Sendable () -> Void) -> Double {
        measurement.wallNanosecondsPerOperation(callers: callers, operation)
    }
}
