import CertKit
import Foundation

/// pyca/cryptography measured on the same inputs in the same run (Benchmarks/pyca/parse_verify.py), when a Python
/// with `cryptography` is found: `--python PATH`, else `.build/bench-venv/bin/python3` (Scripts/bench.sh creates
/// it when the system Python lacks the package), else `python3`.
struct PycaBaseline {
    /// Microseconds per operation by `name/case` (e.g. `valid-chain-rsa/parse + verify`, `bundle/bundle decode`).
    let microseconds: [String: Double]
    /// How each chain was verified (`verifier`, or `links (...)` when pyca's path verifier refused the chain).
    let modes: [String: String]

    /// Runs the script; nil (with a note) when no Python with `cryptography` is available.
    static func measure(
        chains: [ChainWorkload], bundle: (text: [UInt8], count: Int)?, settings: MeasurementSettings, python: String?
    ) -> PycaBaseline? {
        guard let interpreter = findInterpreter(python) else {
            emit("  note: no Python with cryptography (pass --python, or let Scripts/bench.sh create .build/bench-venv): pyca rows skipped")
            return nil
        }
        var request: [String: Any] = [
            "repetitions": settings.repetitions, "min_ms": Int(settings.minimumRepetitionNanoseconds / 1_000_000),
            "cpu_time": settings.threadCPUTime,
            "chains": chains.map { workload in
                [
                    "name": workload.name, "host": workload.host, "time": Int(workload.date.timeIntervalSince1970),
                    "chain": workload.chain.map { Data($0.derEncoded).base64EncodedString() },
                    "anchors": workload.anchors.map { Data($0.derEncoded).base64EncodedString() },
                ] as [String: Any]
            },
        ]
        if let bundle { request["bundle"] = ["pem": Data(bundle.text).base64EncodedString(), "count": bundle.count] }
        guard let input = try? JSONSerialization.data(withJSONObject: request),
              let output = run(interpreter, ["Benchmarks/pyca/parse_verify.py"], input: input) else {
            emit("  note: Benchmarks/pyca/parse_verify.py failed: pyca rows skipped")
            return nil
        }
        var microseconds: [String: Double] = [:]
        var modes: [String: String] = [:]
        for line in output.split(separator: UInt8(ascii: "\n")) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let name = object["name"] as? String, let label = object["case"] as? String else { continue }
            if let value = object["us_per_op"] as? Double { microseconds["\(name)/\(label)"] = value }
            if let mode = object["mode"] as? String { modes[name] = mode }
        }
        for (name, mode) in modes.sorted(by: { $0.key < $1.key }) { emit("  pyca \(name): \(mode)") }
        return PycaBaseline(microseconds: microseconds, modes: modes)
    }

    private static func findInterpreter(_ explicit: String?) -> String? {
        let candidates = explicit.map { [$0] } ?? [".build/bench-venv/bin/python3", "python3"]
        for candidate in candidates where !candidate.contains("/") || FileManager.default.isExecutableFile(atPath: candidate) {
            if run(candidate, ["-c", "import cryptography.x509.verification"], input: Data()) != nil { return candidate }
        }
        return nil
    }

    /// The standard output of `executable arguments` (a bare name is looked up in `PATH`) fed `input`; nil when
    /// it cannot start or exits non-zero.
    private static func run(_ executable: String, _ arguments: [String], input: Data) -> Data? {
        let process = Process()
        let bare = !executable.contains("/")
        process.executableURL = URL(fileURLWithPath: bare ? "/usr/bin/env" : executable)
        process.arguments = bare ? [executable] + arguments : arguments
        process.standardError = FileHandle.nullDevice
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        do { try process.run() } catch { return nil }
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? output : nil
    }
}
