import CertKit
import CertKitBackends
import Foundation

/// `certkit inspect`: what a certificate says, with fingerprints from the selected backend.
enum InspectCommand: Command {
    static let name = "inspect"
    static let summary = "show subject, validity, keys, extensions and fingerprints"

    static let options: [OptionSpec] = [
        .flag("json", "print one JSON document (schema: see the documentation of InspectJSONRenderer)"),
        .value("at", "ISO8601", "judge validity at this time instead of now (e.g. 2030-06-01)"),
        .value("backend", BackendRegistry.choices, "backend that computes the digests (default \(BackendRegistry.standard.defaultName))"),
    ]

    static let help = ArgumentParser.help(
        usage: "certkit inspect [--json] [--at ISO8601] [--backend NAME] FILE ...",
        summary: """
            Shows, for every certificate of every FILE ('-' for standard input): subject, issuer, serial, validity
            and status, subject alternative names, key, signature algorithm, basic constraints, key usage,
            extended key usage, other extensions, SHA-256 and SHA-1 fingerprints and the SPKI pin.
            """,
        options: options)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        let date = try arguments.value("at").map { text throws(CLIError) -> Date in
            try parseDate(text, command: name)
        } ?? Date()
        let backend = try context.registry.resolve(arguments.value("backend"), command: name)
        guard !arguments.positionals.isEmpty else {
            throw .usage("no input file given ('-' reads standard input)", command: name)
        }
        if arguments.positionals.filter({ $0 == "-" }).count > 1 {
            throw .usage("standard input ('-') can be read only once", command: name)
        }
        var summaries: [CertificateSummary] = []
        for input in arguments.positionals {
            let bundle = try context.loader.load(input)
            for certificate in bundle.certificates {
                summaries.append(try CertificateSummary(
                    certificate, index: summaries.count, file: InputReader.displayName(input), at: date,
                    backend: backend))
            }
        }
        context.stdout.write(
            arguments.has("json") ? InspectJSONRenderer.render(summaries) : InspectTextRenderer.render(summaries))
        return .success
    }

    /// Parses an `--at` value.
    static func parseDate(_ text: String, command: String) throws(CLIError) -> Date {
        guard let date = DateText.parse(text) else {
            throw .usage(
                "--at must be an ISO 8601 date such as 2030-06-01 or 2030-06-01T12:00:00Z, not '\(text)'",
                command: command)
        }
        return date
    }
}
