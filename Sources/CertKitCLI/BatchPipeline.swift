import CertKit
import Foundation

/// What one batch line produced: its output line and its share of the exit code.
struct BatchOutcome: Sendable {
    /// One JSON document on one line, newline included.
    var line: String
    /// The line's exit code as a lone evaluation would give it (`inputError` for an error line).
    var exitCode: ExitCode

    /// An error line for input line `number`: `{"error": {"code": ..., "message": ...}, "id": ..., "line": N}`.
    static func error(_ error: BatchLineError, id: JSONValue, number: Int) -> BatchOutcome {
        let document: JSONValue = .object([
            "id": id,
            "line": .int(number),
            "error": .object([
                "code": .string(error.code.rawValue),
                "message": .string(MessageText.line(error.message, limit: BatchLineError.maxMessageLength)),
            ]),
        ])
        return BatchOutcome(line: document.compact, exitCode: .inputError)
    }
}

/// Why a batch line has no result. Codes are stable (Docs/CLI.md).
struct BatchLineError: Error, Sendable {
    enum Code: String, Sendable {
        /// The line is longer than ``BatchOptions/maxLineBytes``.
        case lineTooLong = "line-too-long"
        /// Not one JSON object, or a duplicate key.
        case malformedJSON = "malformed-json"
        /// A key the command does not know.
        case unknownKey = "unknown-key"
        /// A key whose value has the wrong type or is not accepted (a bad date, profile, policy, ...).
        case invalidValue = "invalid-value"
        /// No `chain`, an empty one, or an element that is not a certificate.
        case invalidChain = "invalid-chain"
        /// The backend failed outside trust evaluation (`inspect`'s digests).
        case backend = "backend"
    }

    /// The longest message written (messages quote at most 64 characters of the input).
    static let maxMessageLength = 300

    var code: Code
    var message: String
}

/// The summary of a batch run and its exit code.
struct BatchSummary: Sendable {
    var lines = 0
    var trusted = 0
    var errors = 0
    var disagreements = 0
    /// The worst per-line code so far, by ``rank(_:)``.
    var exitCode: ExitCode = .success

    /// The order in which per-line codes decide the batch's code: any error line (1), then any disagreement of
    /// the backends (3), then the worst verdict (13 otherError, 12 deny, 11 fatal, 10 recoverable), then 0.
    static func rank(_ code: ExitCode) -> Int {
        switch code {
        case .success: 0
        case .recoverableTrustFailure: 1
        case .fatalTrustFailure: 2
        case .deny: 3
        case .otherError: 4
        case .backendsDisagree: 5
        case .inputError: 6
        case .usage: 7
        }
    }

    mutating func add(_ code: ExitCode) {
        lines += 1
        switch code {
        case .success: trusted += 1
        case .inputError: errors += 1
        case .backendsDisagree: disagreements += 1
        default: break
        }
        if Self.rank(code) > Self.rank(exitCode) { exitCode = code }
    }
}

/// Runs a batch: the calling thread reads lines, `jobs` worker threads turn them into output lines, and the
/// outputs are written in input order. At most `window` lines are between reading and writing at any time, so
/// memory does not grow with the input.
final class BatchPipeline: @unchecked Sendable {
    /// One line to process.
    struct Job: Sendable {
        /// The input line number (1 for the first).
        var number: Int
        var line: BatchLineReader.Line
    }

    private struct Pending {
        var sequence: Int
        var job: Job
        /// Input bytes consumed once this line is done (for the progress line's ETA).
        var offset: Int
    }

    private let jobs: Int
    private let window: Int
    private let process: @Sendable (Job) -> BatchOutcome
    /// Written only by the thread holding ``writing``.
    private let output: any ByteSink
    /// Finished lines not yet written, held only while more lines wait in the queue (so a line is written at once
    /// when nothing follows it yet, as for an interactive input): one write for many lines. Touched only by the
    /// thread holding ``writing``, and by ``run(_:)`` after the workers ended.
    private var held: [UInt8] = []
    /// Held bytes are written once there are this many.
    static let heldBytes = 64 * 1_024
    private let progress: BatchProgress?

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [Pending] = []
    private var queueHead = 0
    private var finished: [Int: (outcome: BatchOutcome, offset: Int)] = [:]
    private var nextSequence = 0
    private var nextToWrite = 0
    private var inputEnded = false
    private var writing = false
    /// Workers waiting for a line, and whether the reader waits for room in the window: a wake-up is sent only
    /// to someone waiting (a line handed over costs no system call while every worker is busy).
    private var idleWorkers = 0
    private var readerWaiting = false
    private var summary = BatchSummary()

    init(jobs: Int, output: any ByteSink, progress: BatchProgress?, process: @escaping @Sendable (Job) -> BatchOutcome) {
        self.jobs = max(1, jobs)
        self.window = self.jobs * BatchOptions.windowPerJob
        self.output = output
        self.progress = progress
        self.process = process
    }

    /// Reads every line of `reader`, processes and writes them, and returns the summary.
    /// - Throws: the reader's error, after the lines read before it were written.
    func run(_ reader: inout BatchLineReader) throws -> BatchSummary {
        var workers: [JoinedThread] = []
        for _ in 0..<jobs {
            guard let worker = JoinedThread(stackSize: Self.workerStackSize, body: { [self] in work() }) else { break }
            workers.append(worker)
        }
        // The system refused every thread: the calling thread cannot both read and work, so nothing is read.
        guard !workers.isEmpty else { throw CLIError.backend(name: "batch", problem: "cannot start a worker thread") }
        var failure: (any Error)?
        while true {
            let line: BatchLineReader.Line?
            do {
                line = try reader.next()
            } catch {
                failure = error
                break
            }
            guard let line else { break }
            let job = Job(number: reader.lineNumber, line: line)
            if case .text(let bytes) = line, Self.isBlank(bytes) {
                // Blank lines are no requests; the progress still counts their bytes.
                continue
            }
            condition.lock()
            while nextSequence - nextToWrite >= window {
                readerWaiting = true
                condition.wait()
            }
            readerWaiting = false
            queue.append(Pending(sequence: nextSequence, job: job, offset: reader.bytesConsumed))
            nextSequence += 1
            // Only workers wait while the reader runs: wake one of them.
            if idleWorkers > 0 { condition.signal() }
            condition.unlock()
        }
        condition.lock()
        inputEnded = true
        condition.broadcast()
        condition.unlock()
        while let worker = workers.popLast() { worker.join() }
        if !held.isEmpty {
            output.write(held)
            held.removeAll()
        }
        condition.lock()
        let result = summary
        condition.unlock()
        progress?.finish(result)
        if let failure { throw failure }
        return result
    }

    /// Each worker's stack: evaluation recurses through path building and name-constraint checks.
    private static let workerStackSize = 4 << 20

    private static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    private func work() {
        condition.lock()
        while true {
            while queueHead == queue.count, !inputEnded {
                idleWorkers += 1
                condition.wait()
                idleWorkers -= 1
            }
            if queueHead == queue.count {
                condition.unlock()
                return
            }
            let pending = queue[queueHead]
            queueHead += 1
            if queueHead >= 64, queueHead * 2 >= queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            condition.unlock()
            let outcome = process(pending.job)
            condition.lock()
            finished[pending.sequence] = (outcome, pending.offset)
            if !writing { drain() }
        }
    }

    /// Writes every finished line that is next in order (or holds it while more lines are queued, see ``held``).
    /// Called and returns with the lock held; releases it while writing. Only one thread drains at a time
    /// (`writing`).
    private func drain() {
        writing = true
        while finished[nextToWrite] != nil {
            var bytes: [UInt8] = []
            var offset = 0
            var codes: [ExitCode] = []
            while let ready = finished.removeValue(forKey: nextToWrite) {
                bytes.append(contentsOf: ready.outcome.line.utf8)
                codes.append(ready.outcome.exitCode)
                offset = ready.offset
                nextToWrite += 1
            }
            for code in codes { summary.add(code) }
            let snapshot = summary
            // A reader waiting on a full window is woken once half of it is free, not for every line written.
            if readerWaiting, nextSequence - nextToWrite <= window / 2 { condition.broadcast() }
            let linesQueued = queueHead < queue.count
            condition.unlock()
            held.append(contentsOf: bytes)
            if !linesQueued || held.count >= Self.heldBytes {
                output.write(held)
                held.removeAll(keepingCapacity: true)
            }
            progress?.update(snapshot, bytesDone: offset)
            condition.lock()
        }
        writing = false
    }
}
