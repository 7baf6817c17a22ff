import CertKit
import Foundation

/// What a TLS client pays per new connection: bytes to verdict on RSA, ECDSA and the wide pool, on
/// each backend, against the signature floor (the library verifying the path's signatures with keys built once),
/// the raw C loops (pre-parsed, and parse every call) and pyca/cryptography's parse + verify.
///
/// certkit rows, each in the default configuration (the core's checks alone, `default`) and in the audit mode
/// (`audit`: the library's own verifier also judges the chosen path):
/// - fresh: the chain's DER decoded in Swift and evaluated with every backend cache off (certificate handles and
///   public keys), as for a server never seen before; the anchors are configuration, prepared once per anchor
///   set, and keep their keys with them (as the raw C loop's `X509_STORE` keeps its root's key);
/// - warm: the same, with the backend's caches on, so the intermediate's and the anchor's key (and, with the
///   audit mode, their library handles) were seen before;
/// - repeat: warm, and the evaluator's verified-signature cache on, so every link of the chain, verified on the
///   first call, is not verified again (what a client reconnecting to the same server pays);
/// - 2 threads fresh: two callers on fresh chains; the scaling is one caller's wall time per chain over the
///   2-thread wall time per chain (both on the wall clock, also under `--cpu-time`; on a machine busy with other
///   work it shows the contention, not the scaling).
struct ConnectionBenchmarks {
    let measurement: Measurement
    let report: BenchmarkReport
    let pyca: PycaBaseline?
    let summary: ConnectionSummary

    func run(_ workload: ChainWorkload, backend kind: BackendKind) {
        let benchmark = "connection \(workload.name)"
        let path = trustedPath(workload, kind)
        let floor = SignatureFloor(path: path, backend: kind)
        let raw = kind.raw(workload)
        var line = ConnectionSummary.Line(workload: workload.name, backend: kind.rawValue, links: floor.links)
        let floorRow = report.add(row(benchmark, kind, "raw C: signature floor (\(floor.links) links)",
                                      measurement.nanosecondsPerOperation { floor.verify() }))
        line.floor = floorRow.usPerOp
        line.rawPrepared = report.add(row(benchmark, kind, "raw C: pre-parsed verify", measurement.nanosecondsPerOperation {
            _ = raw.prepared()
        }), baseline: floorRow).usPerOp
        line.rawParse = report.add(row(benchmark, kind, "raw C: parse every call + verify", measurement.nanosecondsPerOperation {
            _ = raw.fromDER()
        }), baseline: floorRow).usPerOp
        line.pyca = pyca?.microseconds["\(workload.name)/parse + verify"]
        // The raw library's own scaling in this run (wall clocks), to read certkit's against.
        let rawOne = report.add(row(benchmark, kind, "raw C: parse every call, 1 thread (wall)",
                                    measurement.wallNanosecondsPerOperation(callers: 1) { _ = raw.fromDER() }))
        let rawTwo = report.add(row(benchmark, kind, "raw C: parse every call, 2 threads (wall)",
                                    measurement.wallNanosecondsPerOperation(callers: 2) { _ = raw.fromDER() }), baseline: rawOne)
        line.scalingRaw = rawOne.usPerOp / max(rawTwo.usPerOp, 1e-9)

        let ders = workload.chainDER
        for audit in [true, false] {
            let label = audit ? "audit" : "default"
            // Fresh and warm verify every signature on every call (the evaluator's verified-signature cache off);
            // "repeat" is the same chain again with it on (each link verified once, then remembered).
            let configuration = TrustEvaluator.Configuration(
                libraryAudit: audit, verifiedSignatureCacheCapacity: 0)
            let fresh = TrustEvaluator(backend: kind.make(handleCache: false), configuration: configuration)
            let warm = TrustEvaluator(backend: kind.make(handleCache: true), configuration: configuration)
            let repeated = TrustEvaluator(
                backend: kind.make(handleCache: true), configuration: .init(libraryAudit: audit))
            for evaluator in [fresh, warm, repeated] where !evaluator.evaluate(workload.evaluation(chain: Self.parse(ders))).isTrusted {
                fail("certkit \(kind) (\(label)) does not trust \(workload.name)")
            }
            let freshRow = report.add(row(benchmark, kind, "certkit fresh, \(label)", measurement.nanosecondsPerOperation {
                _ = fresh.evaluate(workload.evaluation(chain: Self.parse(ders)))
            }), baseline: floorRow)
            let warmRow = report.add(row(benchmark, kind, "certkit warm, \(label)", measurement.nanosecondsPerOperation {
                _ = warm.evaluate(workload.evaluation(chain: Self.parse(ders)))
            }), baseline: floorRow)
            report.add(row(benchmark, kind, "certkit repeat (signatures remembered), \(label)", measurement.nanosecondsPerOperation {
                _ = repeated.evaluate(workload.evaluation(chain: Self.parse(ders)))
            }), baseline: floorRow)
            // Scaling compares wall clocks (one caller, two callers), whatever clock the other rows use.
            let oneThread = report.add(row(benchmark, kind, "certkit fresh 1 thread (wall), \(label)", measurement.wallNanosecondsPerOperation(callers: 1) {
                _ = fresh.evaluate(workload.evaluation(chain: Self.parse(ders)))
            }), baseline: floorRow)
            let twoThreads = report.add(row(benchmark, kind, "certkit fresh 2 threads (wall), \(label)", measurement.wallNanosecondsPerOperation(callers: 2) {
                _ = fresh.evaluate(workload.evaluation(chain: Self.parse(ders)))
            }), baseline: oneThread)
            let scaling = oneThread.usPerOp / max(twoThreads.usPerOp, 1e-9)
            if audit {
                line.freshAudit = freshRow.usPerOp
                line.warmAudit = warmRow.usPerOp
                line.scalingAudit = scaling
            } else {
                line.freshCoreOnly = freshRow.usPerOp
                line.warmCoreOnly = warmRow.usPerOp
                line.scalingCoreOnly = scaling
            }
        }
        summary.add(line)
    }

    /// The path certkit trusts for `workload` (leaf first, anchor last), for the floor.
    private func trustedPath(_ workload: ChainWorkload, _ kind: BackendKind) -> [Certificate] {
        let report = TrustEvaluator(backend: kind.make(handleCache: false)).evaluate(workload.evaluation())
        guard report.isTrusted, report.chain.count >= 2 else { fail("certkit \(kind) does not trust \(workload.name)") }
        return report.chain
    }

    private static func parse(_ ders: [[UInt8]]) -> [Certificate] {
        ders.map { der in
            do { return try Certificate(derEncoded: der) } catch { fail("parse: \(error)") }
        }
    }
}

/// `--profile WORKLOAD BACKEND fresh|warm core|audit COUNT`: one per-connection case in a loop, nothing else, for
/// a profiler (perf record, valgrind --tool=callgrind).
enum ConnectionProfileLoop {
    static func run(_ arguments: [String], chains: [ChainWorkload]) -> Never {
        guard arguments.count == 5, let workload = chains.first(where: { $0.name == arguments[0] }),
              let kind = BackendKind(rawValue: arguments[1]), let count = Int(arguments[4]) else {
            fail("--profile WORKLOAD BACKEND fresh|warm core|audit COUNT")
        }
        let configuration = TrustEvaluator.Configuration(
            libraryAudit: arguments[3] == "audit", verifiedSignatureCacheCapacity: 0)
        let evaluator = TrustEvaluator(backend: kind.make(handleCache: arguments[2] == "warm"), configuration: configuration)
        let ders = workload.chainDER
        var trusted = 0
        for _ in 0..<count {
            let chain = ders.map { der in (try? Certificate(derEncoded: der)) ?? { fail("parse") }() }
            if evaluator.evaluate(workload.evaluation(chain: chain)).isTrusted { trusted += 1 }
        }
        emit("\(trusted) of \(count) trusted")
        exit(0)
    }
}
