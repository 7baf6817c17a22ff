import CertKit
import Foundation

// certkit benchmarks: raw C baselines and certkit, measured in one run (release mode; see Scripts/bench.sh).
//
//   certkit-benchmarks [--json FILE] [--reps N] [--min-ms MS] [--fixtures DIR] [--only WORD] [--workload NAME] [--python PATH] [--cpu-time]
//
//   certkit-benchmarks --write-corpus DIR [--count N]
//
//   certkit-benchmarks --profile WORKLOAD BACKEND fresh|warm core|audit COUNT   (one connection case, for a profiler)
//   certkit-benchmarks --profile-bundle COUNT   (decode of the 1000-certificate bundle COUNT times, for a profiler)
//   certkit-benchmarks --profile-batch library|cli COUNT [ROUNDS]   (the batch benchmark's fresh chains, for a profiler)
//
// Every certkit row carries `ratio` = its µs/op divided by the µs/op of its raw-C baseline row from this run.

var jsonPath: String?
var settings = MeasurementSettings()
var fixtures = "Tests/Fixtures/scenarios"
var only: String?
var batch = BatchSettings()
var python: String?
var profile: [String]?
var workloadFilter: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    func value() -> String {
        guard let next = arguments.next() else { fail("\(argument) needs a value") }
        return next
    }
    switch argument {
    case "--json": jsonPath = value()
    case "--reps": settings.repetitions = max(1, Int(value()) ?? 15)
    case "--min-ms": settings.minimumRepetitionNanoseconds = UInt64(max(1, Int(value()) ?? 50)) * 1_000_000
    case "--fixtures": fixtures = value()
    case "--only": only = value()
    case "--workload": workloadFilter = value()
    case "--python": python = value()
    case "--cpu-time": settings.threadCPUTime = true
    case "--profile": profile = (0..<5).map { _ in value() }
    case "--profile-bundle": BundleProfileLoop.run(count: Int(value()) ?? 1)
    case "--profile-batch":
        let mode = value(), count = Int(value()) ?? 1_000
        BatchProfileLoop.run(mode: mode, count: count, rounds: arguments.next().flatMap { Int($0) } ?? 1)
    case "--batch-chains": batch.chains = max(100, Int(value()) ?? batch.chains)
    case "--batch-memory": batch.memoryChains = max(0, Int(value()) ?? batch.memoryChains)
    case "--write-corpus": batch.corpusDirectory = value()
    case "--count": batch.corpusCount = max(1, Int(value()) ?? batch.corpusCount)
    case "-h", "--help":
        emit("usage: certkit-benchmarks [--json FILE] [--reps N] [--min-ms MS] [--fixtures DIR] [--only WORD] [--workload NAME] [--batch-chains N] [--batch-memory N] [--python PATH] [--cpu-time]")
        emit("       groups for --only: pem, bundle, connection, evaluate, valid-chain-rsa, valid-chain-ec, wide-pool, mesh, throughput, growth, batch")
        emit("       certkit-benchmarks --write-corpus DIR [--count N]   (a mixed batch corpus: good, expired, wrong host, untrusted)")
        emit("       certkit-benchmarks --profile WORKLOAD BACKEND fresh|warm core|audit COUNT   (one connection case in a loop, for a profiler)")
        emit("       certkit-benchmarks --profile-bundle COUNT   (the 1000-certificate bundle decoded COUNT times, for a profiler)")
        emit("       certkit-benchmarks --profile-batch library|cli COUNT [ROUNDS]   (COUNT fresh batch chains, evaluated ROUNDS times by the library or by --batch --jobs 1, for a profiler)")
        exit(0)
    default: fail("unknown argument \(argument)")
    }
}

if let directory = batch.corpusDirectory {
    BatchCorpus.write(count: batch.corpusCount, to: directory)
    exit(0)
}

let filter = only
func selected(_ name: String) -> Bool { filter.map { name.contains($0) } ?? true }

let allChains = [
    ChainWorkload.scenario("valid-chain-rsa", directory: fixtures, anchor: "root-rsa.pem"),
    ChainWorkload.scenario("valid-chain-ec", directory: fixtures, anchor: "root-ec.pem"),
    ChainWorkload.widePool(directory: fixtures),
]
if let profile { ConnectionProfileLoop.run(profile, chains: allChains) }
// `--workload NAME`: the per-workload groups (evaluate, connection, throughput, growth) measure that workload alone.
let chains = allChains.filter { workloadFilter == nil || $0.name == workloadFilter }
if chains.isEmpty { fail("no workload \(workloadFilter ?? "")") }

let measurement = Measurement(settings: settings)
let report = BenchmarkReport()
emit("certkit benchmarks: median of \(settings.repetitions) repetitions, each ≥ \(settings.minimumRepetitionNanoseconds / 1_000_000) ms")
emit(BenchmarkReport.header)

if selected("pem") { ConversionBenchmarks(measurement: measurement, report: report).run() }

let evaluations = EvaluationBenchmarks(measurement: measurement, report: report)
for workload in chains where selected(workload.name) || selected("evaluate") {
    for kind in BackendKind.allCases { evaluations.run(workload, backend: kind) }
}
let connections = ConnectionSummary()
if selected("connection") || selected("bundle") {
    let bundle = selected("bundle") ? thousandCertificatePEM() : nil
    let pyca = PycaBaseline.measure(
        chains: selected("connection") ? chains : [], bundle: bundle, settings: settings, python: python)
    if selected("connection") {
        let connection = ConnectionBenchmarks(measurement: measurement, report: report, pyca: pyca, summary: connections)
        for workload in chains {
            for kind in BackendKind.allCases { connection.run(workload, backend: kind) }
        }
    }
    if let bundle {
        connections.pycaBundle = pyca?.microseconds["bundle/bundle decode"]
        connections.bundleRuns = ConversionBenchmarks(measurement: measurement, report: report).decodeRuns(bundle, runs: 5)
    }
}
if selected("mesh") {
    let mesh = ChainWorkload.mesh(directory: fixtures)
    for kind in BackendKind.allCases { evaluations.runMesh(mesh, backend: kind) }
}
if selected("throughput") {
    let concurrency = ConcurrencyBenchmarks(measurement: measurement, report: report)
    for kind in BackendKind.allCases { concurrency.run(chains[0], backend: kind) }
}

if selected("growth") {
    let growth = GrowthBenchmarks(measurement: measurement, report: report)
    growth.runParsing(spki: chains[0].chain[0].publicKey.derEncoded)
    for kind in BackendKind.allCases { growth.runPool(chains[0], backend: kind) }
}

if selected("batch") {
    BatchBenchmarks(report: report, chains: batch.chains, memoryChains: batch.memoryChains).run()
}

for line in connections.render() { emit(line) }

if let jsonPath {
    do { try report.writeJSON(to: jsonPath) } catch { fail("cannot write \(jsonPath): \(error)") }
    emit("wrote \(report.rows.count) rows to \(jsonPath)")
}
