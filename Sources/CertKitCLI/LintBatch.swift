import CertKit
import Foundation

/// `certkit lint --batch`: the evaluate batch's input lines (keys `chain`, `host`, `ip`, `at`), one `lint --json`
/// document per output line, through the same reader, pipeline and error lines.
enum LintBatch {
    /// The keys of an input line besides `id`.
    static let keys = ["chain", "host", "ip", "at"]

    static func run(
        _ batch: BatchOptions, options: EvaluateOptions, engine: LintEngine, context: CommandContext
    ) throws(CLIError) -> ExitCode {
        let made = try options.makeEvaluationAndSources(certificates: [], context: context)
        var template = made.evaluation
        if template.verifyDate == nil { template.verifyDate = Date() }
        let lines = LineLinter(
            template: template, engine: engine, notes: options.notes(anchorSources: made.anchorSources))
        let progress = BatchProgress.make(context: context, input: batch.input, noun: "chains")
        let pipeline = BatchPipeline(jobs: batch.jobs, output: context.stdout, progress: progress) { job in
            lines.outcome(job)
        }
        return try BatchInput.run(pipeline, input: batch.input, context: context).exitCode
    }

    /// Lints one line; shared by every worker.
    struct LineLinter: Sendable {
        let template: TrustEvaluation
        let engine: LintEngine
        let notes: ReportNotes
        let decoded = DecodedChainElements()

        func outcome(_ job: BatchPipeline.Job) -> BatchOutcome {
            switch BatchRequest.parse(job, keys: LintBatch.keys) {
            case .failure(let failure):
                return failure.outcome(number: job.number)
            case .success(let request):
                do {
                    return try lint(request)
                } catch {
                    return BatchFailure(id: request.id, error: error).outcome(number: job.number)
                }
            }
        }

        private func lint(_ request: BatchRequest) throws(BatchLineError) -> BatchOutcome {
            var evaluation = template
            let chain = try request.chain(skipping: true, decoded: decoded)
            evaluation.certificates = chain.certificates
            evaluation.skippedCertificates.insert(contentsOf: chain.skipped, at: 0)
            if let date = try request.date() { evaluation.verifyDate = date }
            var lineNotes = notes
            let hosts = try request.strings("host"), ips = try request.strings("ip")
            if hosts != nil || ips != nil {
                do {
                    evaluation.policies = [try EvaluateOptions.policy(PolicyOptions(
                        policy: PolicyName.sslServer.rawValue, hosts: hosts ?? [], ips: ips ?? []))]
                } catch {
                    guard case .usage(let problem, _) = error else {
                        throw BatchLineError(code: .invalidValue, message: error.line)
                    }
                    throw BatchLineError(code: .invalidValue, message: problem)
                }
                lineNotes.peerNameOrigin = "the line's " + (hosts != nil ? "host" : "ip")
            }
            let result = engine.lint(evaluation, notes: lineNotes)
            var document = LintJSONRenderer.document(result)
            if case .object(var members) = document {
                members["id"] = request.id
                document = .object(members)
            }
            return BatchOutcome(line: document.compact, exitCode: LintCommand.exitCode(result))
        }
    }
}

extension BatchOptions {
    /// What `lint --help` says about `--batch`.
    static let lintHelp = """
        --batch FILE|-: each input line is one JSON object {"id": ..., "chain": [PEM text or base64 DER, leaf
        first], "host" | "ip": ..., "at": ISO 8601}, as for evaluate --batch; only "chain" is required. Each output
        line is the --json document on one line plus "id"; a bad line gives {"error": {"code": ..., "message":
        ...}, "id": ..., "line": N} and the run goes on. Exit code: 1 if any line was an error, else 10 if some
        target refused some chain, else 0.
        """
}
