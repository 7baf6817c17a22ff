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

        // The four cases. "Prepared inputs" means what the raw baseline gets: certificates already in
        // library handles (the parsed-certificate cache, warm) and anchors compiled once; no result cache.
        let evaluation = workload.evaluation()
        let prepared = TrustEvaluator(backend: kind.make(handleCache: true), configuration: .verifyingEverySignature)
        expectTrusted(prepared.evaluate(evaluation), workload, kind)
        report.add(row(benchmark, kind, "certkit: prepared inputs", measurement.nanosecondsPerOperation {
            _ = prepared.evaluate(evaluation)
        }), baseline: rawPrepared)

        // Fresh chain from DER: parse in Swift and import into the library on every call (no handle cache).
        let ders = workload.chainDER
        let uncached = TrustEvaluator(backend: kind.make(handleCache: false), configuration: .verifyingEverySignature)
        report.add(row(benchmark, kind, "certkit: fresh chain from DER", measurement.nanosecondsPerOperation {
            _ = uncached.evaluate(workload.evaluation(chain: parse(ders)))
        }), baseline: rawDER)

        // Intermediate cached: the chain arrives as DER each time; the intermediate (and here the leaf, which the
        // fixture reuses) is found in the handle cache instead of being imported again.
        let handleCached = TrustEvaluator(backend: kind.make(handleCache: true), configuration: .verifyingEverySignature)
        report.add(row(benchmark, kind, "certkit: intermediate cached", measurement.nanosecondsPerOperation {
            _ = handleCached.evaluate(workload.evaluation(chain: parse(ders)))
        }), baseline: rawDER)

        // Repeat chain: the result cache answers.
        let cached = TrustEvaluator(backend: kind.make(handleCache: true), configuration: .cached)
        report.add(row(benchmark, kind, "certkit: repeat chain", measurement.nanosecondsPerOperation {
            _ = cached.evaluate(evaluation)
        }), baseline: rawPrepared)

        // For reference: certificates handed over parsed in Swift but imported into the library on every call.
        report.add(row(benchmark, kind, "certkit: no handle cache", measurement.nanosecondsPerOperation {
            _ = uncached.evaluate(evaluation)
        }), baseline: rawPrepared)
    }

    /// The 50-CA mesh with no path: certkit must give up quickly.
    func runMesh(_ workload: ChainWorkload, backend kind: BackendKind) {
        let benchmark = "evaluate \(workload.name)"
        let raw = kind.raw(workload)
        let rawRow = report.add(row(benchmark, kind, "raw C: prepared", measurement.nanosecondsPerOperation {
            _ = raw.prepared()
        }))
        let evaluator = TrustEvaluator(backend: kind.make(handleCache: false), configuration: .verifyingEverySignature)
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
