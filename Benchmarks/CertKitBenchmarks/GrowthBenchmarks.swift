import CertKit
import Foundation

/// How cost grows with input size: parse time per certificate as a certificate grows from 1 KB to
/// 1 MB (names, extensions, SANs), and evaluation time as the pool grows from 10 to 100,000 certificates. Each
/// series ends with its fitted growth: the time ratio per 10× size (10 = linear, 100 = quadratic), from a
/// least-squares line through log(time) against log(size).
///
/// The bounds of `Limits` are raised for these runs (the defaults refuse a 1 MB name or a 100,000-certificate
/// pool up front); the point is the algorithms' growth under the bounds.
struct GrowthBenchmarks {
    let measurement: Measurement
    let report: BenchmarkReport

    static let unbounded = Limits(
        maxInputBytes: 1 << 30, maxPEMBlocks: .max, maxCertificatesPerInput: .max, maxAttributesPerName: .max,
        maxExtensionsPerCertificate: .max, maxCRLEntries: .max, maxCRLs: .max, maxPoolCertificates: .max, maxAnchors: .max)

    func runParsing(spki: [UInt8]) {
        for shape in GrowthInputs.Shape.allCases {
            var points: [(size: Double, nanoseconds: Double)] = []
            for target in [1 << 10, 10 << 10, 100 << 10, 1 << 20] {
                let der = GrowthInputs.growing(shape, bytes: target, spki: spki)
                do { _ = try Certificate(derEncoded: der, limits: Self.unbounded) } catch { fail("\(shape): \(error)") }
                let nanoseconds = measurement.nanosecondsPerOperation {
                    _ = try? Certificate(derEncoded: der, limits: Self.unbounded)
                }
                points.append((Double(der.count), nanoseconds))
                report.add(BenchmarkRow(
                    benchmark: "growth parse \(shape.rawValue)", backend: "certkit",
                    case: "\(der.count / 1024) KB certificate", nanosecondsPerOp: nanoseconds))
            }
            emit("  growth: parse \(shape.rawValue): \(Self.describe(points))")
        }
    }

    func runPool(_ workload: ChainWorkload, backend kind: BackendKind) {
        guard let leaf = workload.chain.first, workload.chain.count >= 2 else { fail("\(workload.name): no chain") }
        let needed = Array(workload.chain.dropFirst())
        let all = GrowthInputs.distractors(100_000, spki: leaf.publicKey.derEncoded)
        let evaluator = TrustEvaluator(backend: kind.make(handleCache: true), limits: Self.unbounded, configuration: .verifyingEverySignature)
        var points: [(size: Double, nanoseconds: Double)] = []
        var floorPoints: [(size: Double, nanoseconds: Double)] = []
        for size in [10, 100, 1_000, 10_000, 100_000] {
            // The pool: the real intermediate(s) after `size - needed` distractors, so the search must look past them.
            let pool = Array(all.prefix(size - needed.count)) + needed
            let evaluation = TrustEvaluation(
                certificates: [leaf] + pool, policies: [.sslServer(host: workload.host)], anchors: workload.anchors,
                verifyDate: workload.date)
            let first = evaluator.evaluate(evaluation)
            if !first.isTrusted { emit("  note: pool of \(size): \(first.result) \(first.error.map(\.description) ?? "")") }
            let floor = measurement.nanosecondsPerOperation { Self.indexFloor(pool) }
            let nanoseconds = measurement.nanosecondsPerOperation { _ = evaluator.evaluate(evaluation) }
            points.append((Double(size), nanoseconds))
            floorPoints.append((Double(size), floor))
            let floorRow = report.add(row("growth pool floor", kind, "\(size) certificates", floor))
            report.add(row("growth pool", kind, "\(size) certificates", nanoseconds), baseline: floorRow)
        }
        emit("  growth: evaluate, pool 10 → 100,000 (\(kind)): \(Self.describe(points))")
        emit("  growth: index floor, pool 10 → 100,000 (\(kind)): \(Self.describe(floorPoints))")
    }

    /// The least any evaluation must do with a pool it has not seen: visit each certificate once, de-duplicate it
    /// (a set of certificates) and index it by subject. Its growth is the machine's: once the pool's certificates
    /// no longer fit in the caches, every visit is a cache miss, so time per certificate rises with the pool even
    /// for this linear loop. The evaluation's ratio to it, flat across sizes, shows that the evaluation's own work
    /// per certificate is constant.
    static func indexFloor(_ pool: [Certificate]) {
        var seen = Set<Certificate>(minimumCapacity: pool.count)
        var bySubject: [DistinguishedName: Int] = [:]
        bySubject.reserveCapacity(pool.count)
        for (index, certificate) in pool.enumerated() where seen.insert(certificate).inserted {
            bySubject[certificate.subject] = index
        }
        precondition(bySubject.count <= pool.count)
    }

    /// The fitted ratio per 10× size, then the ratio between each pair of neighbouring sizes (normalized to 10×).
    static func describe(_ points: [(size: Double, nanoseconds: Double)]) -> String {
        let steps = zip(points, points.dropFirst()).map { low, high in
            pow(high.nanoseconds / low.nanoseconds, 1 / log10(high.size / low.size))
        }
        return "×\(format(ratioPerTenfold(points))) per 10× size (fitted; step by step: "
            + steps.map { "×" + format($0) }.joined(separator: ", ") + ")"
    }

    /// 10^slope of the least-squares line through (log10 size, log10 time).
    static func ratioPerTenfold(_ points: [(size: Double, nanoseconds: Double)]) -> Double {
        let xs = points.map { log10($0.size) }, ys = points.map { log10(max($0.nanoseconds, 1)) }
        let n = Double(points.count)
        let meanX = xs.reduce(0, +) / n, meanY = ys.reduce(0, +) / n
        let numerator = zip(xs, ys).reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let denominator = xs.reduce(0) { $0 + ($1 - meanX) * ($1 - meanX) }
        return pow(10, denominator > 0 ? numerator / denominator : 0)
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
