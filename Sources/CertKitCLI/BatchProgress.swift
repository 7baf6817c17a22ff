import Foundation

/// The progress line of a batch on standard error: chains done, rate, errors, and the ETA when the input's size
/// is known. Only made when standard error is a terminal; redrawn at most four times a second.
final class BatchProgress: @unchecked Sendable {
    private let sink: any ByteSink
    private let totalBytes: Int?
    private let noun: String
    private let start = DispatchTime.now().uptimeNanoseconds
    private let lock = NSLock()
    private var lastDraw: UInt64 = 0

    /// The minimum time between two redraws.
    static let interval: UInt64 = 250_000_000

    init(sink: any ByteSink, totalBytes: Int?, noun: String) {
        self.sink = sink
        self.totalBytes = totalBytes.flatMap { $0 > 0 ? $0 : nil }
        self.noun = noun
    }

    /// A progress line on `context`'s standard error when it is the process's terminal, else nil (silent).
    static func make(context: CommandContext, input: String, noun: String) -> BatchProgress? {
        guard context.stderr is FileHandleSink, isatty(STDERR_FILENO) == 1 else { return nil }
        return BatchProgress(sink: context.stderr, totalBytes: inputSize(input, context: context), noun: noun)
    }

    /// The input's size when it is a regular file (a path, or standard input redirected from a file).
    private static func inputSize(_ input: String, context: CommandContext) -> Int? {
        var status = stat()
        if input == "-" {
            guard context.stdin is FileHandleSource, fstat(STDIN_FILENO, &status) == 0 else { return nil }
        } else {
            guard stat(input, &status) == 0 else { return nil }
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Redraws the line if enough time has passed.
    func update(_ summary: BatchSummary, bytesDone: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        defer { lock.unlock() }
        guard now - lastDraw >= Self.interval else { return }
        lastDraw = now
        draw(summary, bytesDone: bytesDone, now: now, final: false)
    }

    /// Draws the final line and ends it.
    func finish(_ summary: BatchSummary) {
        lock.lock()
        defer { lock.unlock() }
        draw(summary, bytesDone: totalBytes ?? 0, now: DispatchTime.now().uptimeNanoseconds, final: true)
    }

    private func draw(_ summary: BatchSummary, bytesDone: Int, now: UInt64, final: Bool) {
        let seconds = Double(now - start) / 1e9
        var parts = ["\(summary.lines) \(noun)"]
        if seconds > 0 { parts.append(String(format: "%.0f/s", Double(summary.lines) / seconds)) }
        parts.append("\(summary.errors) error\(summary.errors == 1 ? "" : "s")")
        if final {
            parts.append(String(format: "%.1f s", seconds))
        } else if let totalBytes, bytesDone > 0 {
            let fraction = min(1, Double(bytesDone) / Double(totalBytes))
            parts.append(String(format: "%.0f%%", fraction * 100))
            let remaining = seconds * (1 - fraction) / fraction
            parts.append("ETA " + Self.duration(remaining))
        }
        sink.write("\r\u{1B}[Kcertkit: " + parts.joined(separator: ", ") + (final ? "\n" : ""))
    }

    private static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600
            ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
            : String(format: "%d:%02d", total / 60, total % 60)
    }
}
