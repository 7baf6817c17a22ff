import Foundation

/// `--batch FILE|-` and `--jobs N` of `evaluate` and `inspect`: one JSON request per input line, one JSON result
/// per output line, in input order (Docs/CLI.md, "Batch mode").
struct BatchOptions: Sendable {
    /// The longest input line, newline excluded: 1 MiB. A longer line is an error line for that line (its bytes
    /// are skipped, never held); a chain of a few certificates is a few kilobytes.
    static let maxLineBytes = 1 << 20
    /// Lines read ahead of the output per worker: at most `jobs × window` lines (each at most
    /// ``maxLineBytes``) are held between reading and writing, whatever the input's size.
    static let windowPerJob = 16
    /// The most workers `--jobs` accepts.
    static let maxJobs = 256

    /// The batch input: a path, or `-` for standard input.
    var input: String
    /// Worker threads.
    var jobs: Int

    /// The two options, for a command's option list.
    static func specs(for command: String) -> [OptionSpec] {
        [
            .value("batch", "FILE|-",
                   "read one JSON request per line (NDJSON), print one JSON result per line, in input order"),
            .value("jobs", "N", "with --batch, the number of worker threads (default: the number of cores)"),
        ]
    }

    /// The batch options of `arguments`, or nil without `--batch`.
    /// - Throws: ``CLIError/usage(_:command:)`` for a bad `--jobs`, or `--jobs` without `--batch`.
    init?(_ arguments: ParsedArguments, command: String) throws(CLIError) {
        guard let input = arguments.value("batch") else {
            if arguments.value("jobs") != nil { throw .usage("--jobs needs --batch", command: command) }
            return nil
        }
        self.input = input
        if let text = arguments.value("jobs") {
            guard let value = Int(text), value >= 1, value <= Self.maxJobs else {
                throw .usage("--jobs must be a whole number from 1 to \(Self.maxJobs), not '\(text)'", command: command)
            }
            jobs = value
        } else {
            jobs = max(1, min(Self.maxJobs, ProcessInfo.processInfo.activeProcessorCount))
        }
    }

    /// What `evaluate --help` says about `--batch`.
    static let evaluateHelp = """
        --batch FILE|-: each input line is one JSON object {"id": ..., "chain": [PEM text or base64 DER, leaf
        first], "host" | "ip" | "email": ..., "policy": ..., "profile": ..., "at": ISO 8601, "ocsp": [base64 DER
        OCSP responses]}; only "chain" is required, any other key is an error for that line (Docs/CLI.md, section
        'Batch mode'). Anchors, trust settings, CRLs, pins, exceptions and the backend come from the command line
        and are prepared once; a line's host/ip/email, policy, profile and at replace the command line's, its ocsp
        responses join --ocsp-response's. Each output line is the --json document on one line plus "id"; a bad line
        gives {"error": {"code": ..., "message": ...}, "id": ..., "line": N} and the run goes on. Blank lines are
        skipped; a line may be at most 1 MiB. Exit code: 1 if any line was an error, else 3 if backends disagreed,
        else the worst verdict's code (13, 12, 11, 10), else 0. A progress line is shown on standard error when it
        is a terminal.
        """

    /// What `inspect --help` says about `--batch`.
    static let inspectHelp = """
        --batch FILE|-: each input line is one JSON object {"id": ..., "chain": [PEM text or base64 DER], "at":
        ISO 8601}, the lines of evaluate --batch (whose host, ip, email, policy, profile and ocsp are accepted and
        not used); only "chain" is required. Each output line is the --json document on one line plus "id"; a bad
        line gives {"error": {"code": ..., "message": ...}, "id": ..., "line": N} and the run goes on. Exit code: 1
        if any line was an error, else 0.
        """
}
