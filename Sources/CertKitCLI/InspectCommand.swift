import CertKit
import CertKitBackends
import Foundation

/// `certkit inspect`: what a certificate says, with fingerprints from the selected backend.
enum InspectCommand: Command {
    static let name = "inspect"
    static let summary = "show subject, validity, keys, extensions and fingerprints"

    static let options: [OptionSpec] = [
        .flag("json", "print one JSON document (its keys: Docs/CLI.md, section 'inspect --json')"),
        .value("at", "ISO8601", "judge validity at this time instead of now (e.g. 2030-06-01)"),
        .value("backend", BackendRegistry.choices,
               "backend that computes the digests and opens PKCS#12 files (default \(BackendRegistry.standard.defaultName))"),
    ] + IdentityInput.passwordOptions + BatchOptions.specs(for: name)

    static let help = ArgumentParser.help(
        usage: "certkit inspect [--json] [--at ISO8601] [--backend NAME] FILE ... | --batch FILE|- [--jobs N]",
        summary: """
            Shows, for every certificate of every FILE ('-' for standard input): subject, issuer, serial, validity
            and status, subject alternative names, key, signature algorithm, basic constraints, key usage,
            extended key usage, other extensions, SHA-256 and SHA-1 fingerprints and the SPKI pin. A PKCS#12 file
            (.p12, .pfx; detected by content) is opened with the password of --password-file or --password-env:
            its certificates are listed and its private key is reported as present, never shown.
            """,
        options: options,
        details: BatchOptions.inspectHelp)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        let date = try arguments.value("at").map { text throws(CLIError) -> Date in
            try parseDate(text, command: name)
        } ?? Date()
        let backend = try context.registry.resolve(arguments.value("backend"), command: name)
        if let batch = try BatchOptions(arguments, command: name) {
            guard arguments.positionals.isEmpty else {
                throw .usage("--batch reads its chains from its input; no FILE argument", command: name)
            }
            return try InspectBatch.run(batch, at: date, backend: backend, context: context)
        }
        let importer = context.registry.entry(named: backend.name)?.identityImporter()
        guard !arguments.positionals.isEmpty else {
            throw .usage("no input file given ('-' reads standard input)", command: name)
        }
        if arguments.positionals.filter({ $0 == "-" }).count > 1 {
            throw .usage("standard input ('-') can be read only once", command: name)
        }
        var summaries: [CertificateSummary] = []
        var keys: [InspectKeyNote] = []
        for input in arguments.positionals {
            let file = InputReader.displayName(input)
            let bytes = try context.reader.read(input)
            let certificates: [Certificate]
            if IdentityInput.isPKCS12(bytes), let importer {
                let password = try IdentityInput.password(arguments, reader: context.reader, command: name)
                let contents = try IdentityInput.readPKCS12(bytes, file: file, password: password, importer: importer)
                keys.append(InspectKeyNote(
                    file: file, certificateIndex: summaries.count,
                    algorithm: contents.identity?.privateKey.algorithm.description))
                certificates = contents.certificates
            } else {
                certificates = try context.loader.decode(bytes, name: file).certificates
            }
            for certificate in certificates {
                summaries.append(try CertificateSummary(
                    certificate, index: summaries.count, file: file, at: date,
                    backend: backend))
            }
        }
        context.stdout.write(
            arguments.has("json")
                ? InspectJSONRenderer.render(summaries, privateKeys: keys)
                : InspectTextRenderer.render(summaries) + InspectTextRenderer.render(keys))
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

/// A private key found next to certificates (in a PKCS#12 file): which file, which certificate it belongs to and
/// its kind. Never the key itself.
struct InspectKeyNote {
    let file: String
    let certificateIndex: Int
    /// The key's kind, nil when the file holds no key.
    let algorithm: String?
}
