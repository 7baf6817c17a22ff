import CertKit
import Foundation

/// Chain evaluation on each backend against the raw library, in the four certkit cases.
struct EvaluationBenchmarks {
    let measurement: Measurement
    let report: BenchmarkReport

    func run(_ workload: ChainWorkload, backend kind: BackendKind) {
        let benchmark = "evaluate \(workload.name)"
        let raw = kind.raw(workload)
        if raw.prepared() != 0 { emit("  note: raw \(kind) does not trust \(workload.name) (code \(raw.prepared()))") }

        let rawPrepared = report.add(row(benchmark, kind, "raw C: prepared", measurement.nanosecondsPerOperation {
            _ = raw.prepared()
        }))
        let rawDER = report.add(row(benchmark, kind, "raw C: import + verify", measurement.nanosecondsPerOperation {
            _ = raw.fromDER()
        }))

        let evaluation = workload.evaluation()
        let uncached = TrustEvaluator(backend: kind.make(handleCache: false), configuration: .uncached)
        expectTrusted(uncached.evaluate(evaluation), workload, kind)
        report.add(row(benchmark, kind, "certkit: prepared inputs", measurement.nanosecondsPerOperation {
            _ = uncached.evaluate(evaluation)
        }), baseline: rawPrepared)

        let withHandles = TrustEvaluator(backend: kind.make(handleCache: true), configuration: .uncached)
        report.add(row(benchmark, kind, "certkit: prepared, cert cache on", measurement.nanosecondsPerOperation {
            _ = withHandles.evaluate(evaluation)
        }), baseline: rawPrepared)

        let ders = workload.chainDER
        report.add(row(benchmark, kind, "certkit: fresh chain from DER", measurement.nanosecondsPerOperation {
            _ = uncached.evaluate(workload.evaluation(chain: parse(ders)))
        }), baseline: rawDER)

        let handleCached = TrustEvaluator(backend: kind.make(handleCache: true), configuration: .uncached)
        report.add(row(benchmark, kind, "certkit: fresh DER, cert cache on", measurement.nanosecondsPerOperation {
            _ = handleCached.evaluate(workload.evaluation(chain: parse(ders)))
        }), baseline: rawDER)

        let cached = TrustEvaluator(backend: kind.make(handleCache: true))
        report.add(row(benchmark, kind, "certkit: repeat chain, result cache", measurement.nanosecondsPerOperation {
            _ = cached.evaluate(evaluation)
        }), baseline: rawPrepared)
    }

    /// The 50-CA mesh with no path: certkit must give up quickly.
    func runMesh(_ workload: ChainWorkload, backend kind: BackendKind) {
        let benchmark = "evaluate \(workload.name)"
        let raw = kind.raw(workload)
        let rawRow = report.add(row(benchmark, kind, "raw C: prepared", measurement.nanosecondsPerOperation {
            _ = raw.prepared()
        }))
        let evaluator = TrustEvaluator(backend: kind.make(handleCache: false), configuration: .uncached)
        let evaluation = workload.evaluation()
        let result = evaluator.evaluate(evaluation)
        emit("  note: certkit \(kind) on \(workload.name): \(result.result), \(result.pathsTried) paths tried")
        report.add(row(benchmark, kind, "certkit: prepared inputs", measurement.nanosecondsPerOperation {
            _ = evaluator.evaluate(evaluation)
        }), baseline: rawRow)
    }

    private func parse(_ ders: [[UInt8]]) -> [Certificate] {
        ders.map { der in
            do { return try Certificate(derEncoded: der) } catch { fail("parse: \(error)") }
        }
    }

    private func expectTrusted(_ result: TrustReport, _ workload: ChainWorkload, _ kind: BackendKind) {
        if !result.isTrusted {
            emit("  note: certkit \(kind) does not trust \(workload.name): \(result.result) \(result.error.map(\.description) ?? "")")
        }
    }
}

func row(_ benchmark: String, _ kind: BackendKind, _ name: String, _ nanoseconds: Double) -> BenchmarkRow {
    BenchmarkRow(benchmark: benchmark, backend: kind.rawValue, case: name, nanosecondsPerOp: nanoseconds)
}
