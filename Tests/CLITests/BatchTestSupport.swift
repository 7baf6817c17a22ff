import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// Runs the built `certkit` with a large standard input: stdout and stderr are read on their own threads
/// (``RunningProcess``) while stdin is written, so neither side blocks on a full pipe.
enum BatchProcess {
    struct Outcome {
        var code: Int32
        var stdout: String
        var stderr: String
        /// The peak resident set (VmHWM, KiB) sampled when the input was half written and when it was all
        /// written (the process still running), when asked for.
        var peakKiB: (half: Int, full: Int)?

        /// The output lines, parsed.
        var objects: [[String: Any]] {
            stdout.split(separator: "\n").map { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? ["unparsed": String(line)]
            }
        }
    }

    /// Runs `certkit arguments`, feeding `lines` (each followed by a newline) on standard input.
    static func run(_ arguments: [String], lines: [String], samplePeak: Bool = false) throws -> Outcome {
        try run(arguments, chunks: lines.map { Data(($0 + "\n").utf8) }, samplePeak: samplePeak)
    }

    static func run(
        _ arguments: [String], chunks: [Data], samplePeak: Bool = false
    ) throws -> Outcome {
        let executable = try #require(BinaryTests.executable, "build the certkit product first")
        let process = try RunningProcess([executable] + arguments, input: .pipe)
        let pid = process.pid
        var peaks: (half: Int, full: Int) = (0, 0)
        var written = 0
        for chunk in chunks {
            try? process.write(Array(chunk))
            written += 1
            if samplePeak, written == chunks.count / 2 { peaks.half = Self.peakKiB(pid) }
        }
        if samplePeak { peaks.full = Self.peakKiB(pid) }
        process.closeInput()
        let result = process.wait()
        return Outcome(
            code: result.status, stdout: result.stdoutText, stderr: result.stderrText, peakKiB: samplePeak ? peaks : nil)
    }

    /// VmHWM of `pid` in KiB (0 when unreadable).
    static func peakKiB(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}

/// Batch input lines built from files.
enum BatchLines {
    /// One JSON line.
    static func line(_ members: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: members, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A file as one chain element: its text when it is PEM, else the base64 of its bytes.
    static func element(_ path: String) throws -> String {
        let bytes = try FixtureLocator.bytes(path)
        if let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN") { return text }
        return Data(bytes).base64EncodedString()
    }

    /// The certificates of a file as base64 DER elements.
    static func derElements(_ path: String) throws -> [String] {
        try CertificateBundle.decode(try FixtureLocator.bytes(path)).certificates.map { Data($0.derEncoded).base64EncodedString() }
    }
}
