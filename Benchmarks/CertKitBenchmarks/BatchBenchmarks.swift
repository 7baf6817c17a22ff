import CBaselines
import CertKit
import CertKitCLI
import Foundation

/// `certkit evaluate --batch` on fresh chains (every leaf new, the intermediate shared) against a raw C loop that
/// imports each chain's DER and runs `X509_verify_cert` with the same anchor, purpose, host and time; then the
/// resident memory of the real binary while a long stream of lines goes through it.
struct BatchBenchmarks {
    let report: BenchmarkReport
    /// Fresh chains per throughput measurement.
    var chains = 10_000
    /// Rounds of the throughput measurements (the median is reported).
    var repetitions = 5
    /// Lines streamed through the binary for the memory measurement (0: skipped).
    var memoryChains = 200_000

    func run() {
        let chains = self.chains
        emit("  batch: generating \(chains) fresh chains (ECDSA P-256, one new leaf each, shared intermediate)")
        let pki = BatchPKI()
        let corpus = BatchCorpus(pki: pki)
        var lines: [String] = []
        var ders: [[[UInt8]]] = []
        var hosts: [String] = []
        for index in 0..<chains {
            let (json, chain) = corpus.line(index, .good)
            lines.append(json)
            ders.append(chain)
            hosts.append("leaf-\(index).example")
        }
        let input = Array((lines.joined(separator: "\n") + "\n").utf8)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("certkit-batch-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let anchors = "\(directory)/anchors.pem"
        _ = FileManager.default.createFile(atPath: anchors, contents: Data(PEM.encode(pki.rootA).utf8))

        let benchmark = "batch fresh chains"
        let anchor: [Certificate]
        do { anchor = [try Certificate(derEncoded: pki.rootA)] } catch { fail("root: \(error)") }
        let store = RawOpenSSLStore(anchors: anchor)
        let when = Int64(BatchCorpus.date.timeIntervalSince1970)
        let hostStrings = hosts.map(CString.init)
        let lists = ders.map { chain in (bytes: chain.flatMap { $0 }, lengths: chain.map(\.count)) }
        @Sendable func rawLoop(_ range: Range<Int>) -> Int {
            var trusted = 0
            for index in range {
                let list = lists[index]
                let code = list.bytes.withUnsafeBufferPointer { bytes in
                    list.lengths.withUnsafeBufferPointer { lengths in
                        hostStrings[index].with {
                            cb_ossl_verify_der(store.handle, bytes.baseAddress!, lengths.baseAddress!, lengths.count, when, $0)
                        }
                    }
                }
                if code == 0 { trusted += 1 }
            }
            return trusted
        }
        let rawTrusted = rawLoop(0..<min(chains, 100))
        if rawTrusted != min(chains, 100) { emit("  note: the raw loop trusts \(rawTrusted) of the first 100 chains") }
        let twoThreads: @Sendable () -> Void = {
            let group = DispatchGroup()
            let half = chains / 2
            for range in [0..<half, half..<chains] {
                group.enter()
                Thread {
                    _ = rawLoop(range)
                    group.leave()
                }.start()
            }
            group.wait()
        }

        // The library alone on the same chains: DER parsed in Swift, one TrustEvaluator (handle cache on, so
        // only the shared intermediate hits it), no JSON in or out. The gap to the --jobs 1 row is the CLI's.
        let evaluator = TrustEvaluator(backend: BackendKind.openssl.make(handleCache: true), configuration: .uncached)
        let library = {
            for index in 0..<chains {
                let certificates = ders[index].map { der -> Certificate in
                    do { return try Certificate(derEncoded: der) } catch { fail("parse: \(error)") }
                }
                _ = evaluator.evaluate(TrustEvaluation(
                    certificates: certificates, policies: [.sslServer(host: hosts[index])], anchors: anchor,
                    verifyDate: BatchCorpus.date))
            }
        }

        // The signature floor of this corpus with the shared intermediate's signature remembered: one P-256
        // verification per chain (the leaf's, by the intermediate's key built once), nothing else.
        let leafFloor: SignatureFloor
        do {
            leafFloor = SignatureFloor(
                path: [try Certificate(derEncoded: ders[0][0]), try Certificate(derEncoded: pki.intermediateA)],
                backend: .openssl)
        } catch { fail("floor: \(error)") }

        let arguments = ["evaluate", "--anchors", anchors, "--at", "2030-06-01", "--batch", "-"]
        func batch(_ jobs: Int, audit: Bool = false) -> () -> Void {
            let options = ["--jobs", "\(jobs)"] + (audit ? ["--audit"] : [])
            return {
                _ = CertKitCommand.run(
                    arguments: arguments + options, stdin: MemorySource(input), stdout: CountingSink(),
                    stderr: CountingSink())
            }
        }
        for jobs in [1, 2] {
            // A first run checks the output: one trusted verdict per chain.
            let sink = MemorySink(), errors = MemorySink()
            let code = CertKitCommand.run(
                arguments: arguments + ["--jobs", "\(jobs)"], stdin: MemorySource(input), stdout: sink, stderr: errors)
            let outputs = sink.text.split(separator: "\n")
            let trusted = outputs.filter { $0.contains(#""trusted":true"#) }.count
            if code != 0 || outputs.count != chains || trusted != chains {
                emit("  note: --jobs \(jobs) exited \(code) with \(outputs.count) lines (\(trusted) trusted) for \(chains) chains: \(errors.text)")
            }
        }

        // The cases run in turn, round after round, so a busy neighbour slows them all alike; wall time gives
        // chains/s, CPU time (all threads of this process) the work per chain whatever the machine's load.
        let cases: [(name: String, body: () -> Void)] = [
            ("raw C: d2i + X509_verify_cert, 1 thread", { _ = rawLoop(0..<chains) }),
            ("raw C: 2 threads", twoThreads),
            ("certkit library: parse + evaluate", library),
            ("certkit --batch --jobs 1", batch(1)),
            ("certkit --batch --jobs 2", batch(2)),
            ("certkit --batch --jobs 1 --audit", batch(1, audit: true)),
            ("certkit --batch --jobs 2 --audit", batch(2, audit: true)),
            ("floor: the leaf's signature per chain (intermediate's remembered)", {
                for _ in 0..<chains { leafFloor.verify() }
            }),
        ]
        var wall = cases.map { _ in [Double]() }, cpu = cases.map { _ in [Double]() }
        for _ in 0..<repetitions {
            for (index, measured) in cases.enumerated() {
                let cpuStart = Self.cpuNanoseconds(), start = Measurement.now()
                measured.body()
                wall[index].append(Double(Measurement.now() - start) / Double(chains))
                cpu[index].append(Double(Self.cpuNanoseconds() - cpuStart) / Double(chains))
            }
        }
        var rows: [BenchmarkRow] = []
        for (index, measured) in cases.enumerated() {
            rows.append(report.add(
                row(benchmark, .openssl, measured.name, Measurement.median(wall[index])),
                baseline: index == 0 || index == 1 ? nil : rows.first))
        }
        var cpuRows: [BenchmarkRow] = []
        for (index, measured) in cases.enumerated() {
            cpuRows.append(report.add(
                row(benchmark + " CPU", .openssl, measured.name, Measurement.median(cpu[index])),
                baseline: index == 0 ? nil : cpuRows.first))
        }
        let raw = rows[0], raw2 = rows[1], lib = rows[2], one = rows[3], two = rows[4]
        emit(String(format: "  batch: --jobs 1 %.0f chains/s = %.2f× the raw C loop (target ≥ 0.80×); --jobs 2 %.0f chains/s = %.2f× --jobs 1 (target ≥ 1.80×); raw C on 2 threads %.2f× raw on 1 (what this machine gives a second thread now); the library alone %.2f× raw",
                    one.opsPerS, one.opsPerS / raw.opsPerS, two.opsPerS, two.opsPerS / one.opsPerS, raw2.opsPerS / raw.opsPerS,
                    lib.opsPerS / raw.opsPerS))
        emit(String(format: "  batch CPU per chain: raw C %.0f µs, library %.0f µs (%.2f× raw), --jobs 1 %.0f µs (%.2f× raw), --jobs 2 %.0f µs",
                    cpuRows[0].usPerOp, cpuRows[2].usPerOp, cpuRows[2].usPerOp / cpuRows[0].usPerOp, cpuRows[3].usPerOp,
                    cpuRows[3].usPerOp / cpuRows[0].usPerOp, cpuRows[4].usPerOp))
        let oneOff = rows[5], twoOff = rows[6]
        emit(String(format: "  batch, --audit (the library's verifier too): --jobs 1 %.0f chains/s = %.2f× the raw C loop; --jobs 2 %.0f chains/s = %.2f× its --jobs 1",
                    oneOff.opsPerS, oneOff.opsPerS / raw.opsPerS, twoOff.opsPerS, twoOff.opsPerS / oneOff.opsPerS))
        let floor = rows[7]
        emit(String(format: "  batch against the signature floor (%.0f chains/s): --jobs 1 %.2f× (target ≥ 0.80×), --jobs 1 --audit %.2f×; --jobs 2 %.2f× --jobs 1 (target ≥ 1.80×), --audit --jobs 2 %.2f× its --jobs 1",
                    floor.opsPerS, one.opsPerS / floor.opsPerS, oneOff.opsPerS / floor.opsPerS,
                    two.opsPerS / one.opsPerS, twoOff.opsPerS / oneOff.opsPerS))
        if memoryChains > 0 { runMemory(lines: lines, anchors: anchors) }
    }

    /// User + system CPU time of the whole process (every thread), in nanoseconds.
    private static func cpuNanoseconds() -> UInt64 {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func nanoseconds(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1_000 }
        return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
    }

    /// Streams `memoryChains` lines (the fresh chains again and again, each line with a new id) through the
    /// release `certkit` binary and samples its resident set as it goes.
    private func runMemory(lines: [String], anchors: String) {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("certkit").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            emit("  note: memory skipped: no certkit binary next to the benchmarks (Scripts/bench.sh builds it)")
            return
        }
        // Each line without its `{"id":N,` prefix, so new ids can be put in front.
        let bodies = lines.map { line -> [UInt8] in
            let bytes = Array(line.utf8)
            return Array(bytes[(bytes.firstIndex(of: UInt8(ascii: ","))! + 1)...]) + [0x0A]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["evaluate", "--anchors", anchors, "--at", "2030-06-01", "--batch", "-", "--jobs", "2"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { fail("cannot run \(binary): \(error)") }
        let pid = process.processIdentifier
        let total = memoryChains
        let samples = SampleBox()
        let writer = input.fileHandleForWriting
        let done = DispatchSemaphore(value: 0)
        let start = Measurement.now()
        Thread {
            var block = Data()
            for index in 0..<total {
                block.append(contentsOf: Array(#"{"id":\#(index),"#.utf8))
                block.append(contentsOf: bodies[index % bodies.count])
                if index % 1_000 == 999 || index == total - 1 {
                    try? writer.write(contentsOf: block)
                    block.removeAll(keepingCapacity: true)
                }
                if (index + 1) % max(1, total / 10) == 0 { samples.append((index + 1, Self.status(pid, "VmRSS"))) }
            }
            try? writer.close()
            done.signal()
        }.start()
        var outputLines = 0
        let reader = output.fileHandleForReading
        while let chunk = try? reader.read(upToCount: 1 << 16), !chunk.isEmpty {
            outputLines += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        done.wait()
        process.waitUntilExit()
        let seconds = Double(Measurement.now() - start) / 1e9
        let points = samples.values.map { "\($0.0 / 1_000)k: \($0.1 / 1_024) MiB" }.joined(separator: ", ")
        emit("  batch memory (--jobs 2, \(total) lines, \(outputLines) results, exit \(process.terminationStatus), \(String(format: "%.0f", Double(total) / seconds)) chains/s): resident \(points); peak \(samples.peak / 1_024) MiB")
    }

    /// A `/proc/PID/status` field in KiB (0 when unreadable).
    private static func status(_ pid: Int32, _ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    private final class SampleBox: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [(Int, Int)] = []
        var values: [(Int, Int)] { lock.withLock { list } }
        var peak: Int { values.map(\.1).max() ?? 0 }
        func append(_ sample: (Int, Int)) { lock.withLock { list.append(sample) } }
    }
}

/// Drops what is written (the measured runs' output), counting lines.
final class CountingSink: ByteSink, @unchecked Sendable {
    private(set) var lines = 0

    func write(_ bytes: [UInt8]) { lines += bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
}

/// `--profile-batch library|cli COUNT [ROUNDS]`: the batch benchmark's fresh chains (COUNT good lines), evaluated
/// ROUNDS times by the library alone (parse + evaluate, as the "certkit library" row) or by `--batch --jobs 1` (as
/// the "certkit --batch --jobs 1" row), nothing else timed, for a profiler; prints the CPU time per chain.
enum BatchProfileLoop {
    static func run(mode: String, count: Int, rounds: Int) -> Never {
        let pki = BatchPKI()
        let corpus = BatchCorpus(pki: pki)
        var lines: [String] = [], ders: [[[UInt8]]] = [], hosts: [String] = []
        for index in 0..<count {
            let (json, chain) = corpus.line(index, .good)
            lines.append(json)
            ders.append(chain)
            hosts.append("leaf-\(index).example")
        }
        let anchor: [Certificate]
        do { anchor = [try Certificate(derEncoded: pki.rootA)] } catch { fail("root: \(error)") }
        let body: () -> Int
        switch mode {
        case "library":
            let evaluator = TrustEvaluator(backend: BackendKind.openssl.make(handleCache: true), configuration: .uncached)
            body = {
                var trusted = 0
                for index in 0..<count {
                    let certificates = ders[index].map { der -> Certificate in
                        do { return try Certificate(derEncoded: der) } catch { fail("parse: \(error)") }
                    }
                    if evaluator.evaluate(TrustEvaluation(
                        certificates: certificates, policies: [.sslServer(host: hosts[index])], anchors: anchor,
                        verifyDate: BatchCorpus.date)).isTrusted { trusted += 1 }
                }
                return trusted
            }
        case "cli":
            let input = Array((lines.joined(separator: "\n") + "\n").utf8)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("certkit-batch-profile-\(getpid())").path
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let anchors = "\(directory)/anchors.pem"
            _ = FileManager.default.createFile(atPath: anchors, contents: Data(PEM.encode(pki.rootA).utf8))
            body = {
                let sink = MemorySink()
                _ = CertKitCommand.run(
                    arguments: ["evaluate", "--anchors", anchors, "--at", "2030-06-01", "--batch", "-", "--jobs", "1"],
                    stdin: MemorySource(input), stdout: sink, stderr: CountingSink())
                return sink.text.split(separator: "\n").filter { $0.contains(#""trusted":true"#) }.count
            }
        default:
            fail("--profile-batch library|cli COUNT [ROUNDS]")
        }
        var trusted = 0
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let start = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        for _ in 0..<max(1, rounds) { trusted += body() }
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let end = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        emit(String(format: "%d of %d trusted; %.1f µs CPU per chain", trusted, count * max(1, rounds),
                    (end - start) / Double(count * max(1, rounds))))
        exit(0)
    }
}
