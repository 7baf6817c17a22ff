import CertKit
import Foundation

/// `certkit inspect --batch`: the `inspect --json` document of each line's certificates.
enum InspectBatch {
    /// The keys of an input line besides `id`: those of `evaluate --batch`, so one corpus feeds both (the
    /// identity, policy and profile keys are accepted and not used).
    static let keys = EvaluateBatch.keys

    /// Runs the batch; `date` is `--at`, or now (the batch's start) without it.
    static func run(_ batch: BatchOptions, at date: Date, backend: any TrustBackend, context: CommandContext)
        throws(CLIError) -> ExitCode
    {
        let inspector = LineInspector(date: date, backend: backend, inputName: InputReader.displayName(batch.input))
        let progress = BatchProgress.make(context: context, input: batch.input, noun: "lines")
        let pipeline = BatchPipeline(jobs: batch.jobs, output: context.stdout, progress: progress) { job in
            inspector.outcome(job)
        }
        let summary = try BatchInput.run(pipeline, input: batch.input, context: context)
        return summary.errors > 0 ? .inputError : .success
    }

    struct LineInspector: Sendable {
        let date: Date
        let backend: any TrustBackend
        /// The batch input's name: each certificate's `file` is `<name>:<line>`.
        let inputName: String

        func outcome(_ job: BatchPipeline.Job) -> BatchOutcome {
            switch BatchRequest.parse(job, keys: InspectBatch.keys) {
            case .failure(let failure):
                return failure.outcome(number: job.number)
            case .success(let request):
                do throws(BatchLineError) {
                    let date = try request.date() ?? self.date
                    let certificates = try request.chain()
                    var summaries: [CertificateSummary] = []
                    for (index, certificate) in certificates.enumerated() {
                        do {
                            summaries.append(try CertificateSummary(
                                certificate, index: index, file: "\(inputName):\(job.number)", at: date, backend: backend))
                        } catch {
                            throw BatchLineError(code: .backend, message: error.line)
                        }
                    }
                    let document: JSONValue = .object([
                        "certificates": .array(summaries.map(InspectJSONRenderer.object)), "id": request.id,
                    ])
                    return BatchOutcome(line: document.compact, exitCode: .success)
                } catch {
                    return BatchFailure(id: request.id, error: error).outcome(number: job.number)
                }
            }
        }
    }
}
