import CertKit
import CertKitSockets
import Foundation

/// `certkit evaluate --batch`: many chains against one prepared set of anchors, settings and CRLs.
enum EvaluateBatch {
    /// The keys of an input line besides `id`.
    static let keys = ["chain", "host", "ip", "email", "policy", "profile", "at", "ocsp"]

    static func run(
        _ batch: BatchOptions, options: EvaluateOptions, arguments: ParsedArguments, context: CommandContext
    ) throws(CLIError) -> ExitCode {
        // Every file is read once; each line's evaluation is a copy of this one with its own chain (the anchor
        // arrays are shared, so the evaluator finds its prepared anchor store at once).
        let made = try options.makeEvaluationAndSources(certificates: [], context: context)
        var template = made.evaluation
        // Without --at, every line is judged at the batch's start.
        if template.verifyDate == nil { template.verifyDate = Date() }
        let names: [String]
        switch options.backend {
        case .one(let name): names = [name]
        case .both: names = context.registry.names
        }
        let network = options.network ? NetworkAccess(fetcher: HTTPFetcher()) : nil
        let evaluator = LineEvaluator(
            template: template, arguments: arguments, policy: options.policy,
            notes: options.notes(anchorSources: made.anchorSources),
            evaluators: names.map {
                TrustEvaluator(
                    backend: context.registry.backend(named: $0)!, configuration: options.evaluatorConfiguration,
                    network: network)
            })
        let progress = BatchProgress.make(context: context, input: batch.input, noun: "chains")
        let pipeline = BatchPipeline(jobs: batch.jobs, output: context.stdout, progress: progress) { job in
            evaluator.outcome(job)
        }
        return try BatchInput.run(pipeline, input: batch.input, context: context).exitCode
    }

    /// Evaluates one line; shared by every worker.
    struct LineEvaluator: Sendable {
        let template: TrustEvaluation
        /// The command line, whose identity, policy and profile options a line may replace.
        let arguments: ParsedArguments
        /// The command line's policy (for lines that replace none of them).
        let policy: TrustPolicy
        /// What every line's document says besides its report (a line's own host is from the line).
        let notes: ReportNotes
        let evaluators: [TrustEvaluator]
        /// The intermediates the lines repeat, decoded once.
        let decoded = DecodedChainElements()

        func outcome(_ job: BatchPipeline.Job) -> BatchOutcome {
            switch BatchRequest.parse(job, keys: EvaluateBatch.keys) {
            case .failure(let failure):
                return failure.outcome(number: job.number)
            case .success(let request):
                do {
                    return try evaluate(request)
                } catch {
                    return BatchFailure(id: request.id, error: error).outcome(number: job.number)
                }
            }
        }

        private func evaluate(_ request: BatchRequest) throws(BatchLineError) -> BatchOutcome {
            var evaluation = template
            let policy = try self.policy(request)
            let date = try request.date()
            // Only the leaf must decode: a later certificate that does not is left out and reported, as for evaluate.
            let chain = try request.chain(skipping: true, decoded: decoded)
            evaluation.certificates = chain.certificates
            evaluation.skippedCertificates.insert(contentsOf: chain.skipped, at: 0)
            // A line's stapled responses join the command line's --ocsp-response ones (each answers only for the
            // certificate its certID names).
            let lineResponses = try request.ocspResponses()
            evaluation.ocspResponses += lineResponses
            if let policy { evaluation.policies = [policy] }
            if let date { evaluation.verifyDate = date }
            let reports = evaluators.map { $0.evaluate(evaluation) }
            var notes = self.notes
            notes.stapledResponses = lineResponses  // a line's "ocsp": what its server stapled
            let lineHost = try request.strings("host")
            let lineIP = try request.strings("ip")
            if lineHost != nil || lineIP != nil { notes.peerNameOrigin = "the line's " + (lineHost != nil ? "host" : "ip") }
            var writer = JSONWriter(pretty: false, capacity: 2_048)
            let code: ExitCode
            if BackendComparison.agree(reports) {
                EvaluateJSONRenderer.write(
                    reports[0], to: &writer, backends: reports.count > 1 ? reports.map(\.backend) : nil, id: request.id,
                    notes: notes)
                code = ExitCode(result: reports[0].result)
            } else {
                EvaluateJSONRenderer.writeDisagreement(reports, to: &writer, id: request.id, notes: notes)
                code = .backendsDisagree
            }
            return BatchOutcome(line: writer.finishedText(), exitCode: code)
        }

        /// The line's policy when it names an identity, a policy or a profile (the command line's otherwise).
        private func policy(_ request: BatchRequest) throws(BatchLineError) -> TrustPolicy? {
            let hosts = try request.strings("host"), ips = try request.strings("ip"), emails = try request.strings("email")
            let policyName = try request.string("policy"), profile = try request.string("profile")
            guard hosts != nil || ips != nil || emails != nil || policyName != nil || profile != nil else { return nil }
            // A line's identities replace all of the command line's; its policy and profile replace the command
            // line's. (Read in place: a copy of the command line's arguments per line costs more than the rest.)
            let identities = hosts != nil || ips != nil || emails != nil
            let options = PolicyOptions(
                policy: policyName ?? arguments.value("policy"), profile: profile ?? arguments.value("profile"),
                hosts: identities ? hosts ?? [] : arguments.all("host"), ips: identities ? ips ?? [] : arguments.all("ip"),
                emails: identities ? emails ?? [] : arguments.all("email"))
            do {
                return try EvaluateOptions.policy(options)
            } catch {
                guard case .usage(let problem, _) = error else {
                    throw BatchLineError(code: .invalidValue, message: error.line)
                }
                throw BatchLineError(code: .invalidValue, message: problem)
            }
        }
    }
}
