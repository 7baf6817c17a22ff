import CertKit
import CertKitBackends
import CertKitSockets
import Foundation

/// `certkit lint`: one chain, every client target's verdict side by side, every rule each one finds broken, and
/// the issuance findings of the Baseline Requirements apart.
enum LintCommand: Command {
    static let name = "lint"
    static let summary = "judge a chain for every client at once (iOS, macOS, Chrome, Firefox, RFC 5280, OpenSSL, GnuTLS): every broken rule, with fixes"

    /// The evaluate options lint takes, read by evaluate's own parser (the same names and behaviour).
    static let sharedOptionNames: Set<String> = [
        "anchors", "intermediates", "host", "ip", "at", "max-depth", "system-roots", "always-trust", "distrust",
        "trust-store", "store", "crl", "ocsp-response", "network", "revocation", "require-revocation",
    ]

    /// The options of one lint (shared with `connect --lint`): `--targets`.
    static let lintOptions: [OptionSpec] = [
        .value("targets", "LIST",
               "the clients to judge for, comma-separated (default all): \(LintTarget.names.joined(separator: ", "))"),
    ]

    static let options: [OptionSpec] =
        EvaluateCommand.evaluationOptions.filter { sharedOptionNames.contains($0.name) }.map { spec in
            // The SSL server policy checks one name: lint words --host and --ip for it.
            switch spec.name {
            case "host": .value("host", "NAME", "the server's DNS name or IP literal every target checks")
            case "ip": .value("ip", "ADDR", "the server's IP address every target checks")
            default: spec
            }
        }
        + lintOptions
        + [
            .value("backend", BackendRegistry.choices,
                   "the backend that verifies signatures for the certkit targets (default \(BackendRegistry.standard.defaultName)); the openssl and gnutls targets use their own library"),
            .flag("json", "print one JSON document (its keys: Docs/CLI.md, section 'lint --json')"),
        ]
        + BatchOptions.specs(for: name)

    static let help = ArgumentParser.help(
        usage: "certkit lint [--anchors FILE | --system-roots | --trust-store] [--host NAME | --ip ADDR] [--targets LIST] [--json] CHAIN|- | --batch FILE|- [--jobs N]",
        summary: """
            Judges CHAIN (leaf first; '-' reads standard input) for every client target at once under the SSL server
            policy and prints one table: a column per target (trusted or not), a row per broken rule with the
            certificate it is about, the check and a one-line fix. Targets: ios and macos (the apple profile),
            chrome and firefox (webpki), rfc5280, openssl and gnutls (each library's own verifier on the path
            certkit builds, as --audit runs it: no host name or purpose check). Below the table, the issuance
            findings: what the CA/Browser Forum Baseline Requirements ask of the certificates (validity, names,
            keys, EKU, AIA, serial numbers), which no client verdict depends on. Anchors, intermediates, --host
            and --at work as for evaluate.
            """,
        options: options,
        details: """
            targets: \(LintTarget.all.map { "\($0.name): \($0.summary)" }.joined(separator: "; ")).

            The table is coloured on a terminal unless NO_COLOR is set. Rules and issuance findings: Docs/Profiles.md.

            exit codes: 0 every requested target trusts the chain, 10 some target refuses it, 1 input error,
            2 usage error

            \(BatchOptions.lintHelp)
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        let options = try evaluateOptions(arguments, context: context, command: name)
        let engine = try engine(arguments, options: options, context: context, command: name)
        if let batch = try BatchOptions(arguments, command: name) {
            return try LintBatch.run(batch, options: options, engine: engine, context: context)
        }
        let (evaluation, sources) = try options.makeEvaluationAndSources(context: context)
        return report(
            engine.lint(evaluation, notes: options.notes(anchorSources: sources)), json: options.json, context: context)
    }

    /// Prints `result` and returns the exit code.
    static func report(_ result: LintResult, json: Bool, context: CommandContext) -> ExitCode {
        if json {
            context.stdout.write(LintJSONRenderer.document(result).rendered)
        } else {
            context.stdout.write(LintTextRenderer.render(result, colour: colourWanted(context)))
        }
        return exitCode(result)
    }

    /// 0 when every target trusts the chain, else 10.
    static func exitCode(_ result: LintResult) -> ExitCode {
        result.allTrusted ? .success : .recoverableTrustFailure
    }

    /// Colour only on a terminal, and never when NO_COLOR is set to anything but the empty string.
    static func colourWanted(_ context: CommandContext) -> Bool {
        if let noColour = context.environment["NO_COLOR"], !noColour.isEmpty { return false }
        return (context.stdout as? FileHandleSink)?.isTerminal == true
    }

    /// Evaluate's options, read by evaluate's parser, under the SSL server policy (with the host when one is
    /// given): the same anchors, intermediates, host and date rules as `evaluate`.
    static func evaluateOptions(_ arguments: ParsedArguments, context: CommandContext, command: String)
        throws(CLIError) -> EvaluateOptions
    {
        var shared = arguments
        shared.values["policy"] = [PolicyName.sslServer.rawValue]
        shared.values["backend"] = nil
        shared.flags.remove("audit")
        do {
            return try EvaluateOptions(shared, registry: context.registry)
        } catch .usage(let problem, _) {
            throw .usage(problem, command: command)
        } catch {
            throw error
        }
    }

    /// The targets `--targets` names (all by default), in table order.
    static func targets(_ text: String?, command: String) throws(CLIError) -> [LintTarget] {
        guard let text, text != "all" else { return LintTarget.all }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        for name in names where !LintTarget.names.contains(name) {
            let suggestion = Suggestion.closest(to: name, among: LintTarget.names).map { "; did you mean '\($0)'?" } ?? ""
            throw .usage(
                "--targets: unknown target '\(name)' (choose from \(LintTarget.names.joined(separator: ", ")), or all)\(suggestion)",
                command: command)
        }
        return LintTarget.all.filter { names.contains($0.name) }
    }

    /// The engine for the targets and backend the arguments choose.
    static func engine(
        _ arguments: ParsedArguments, options: EvaluateOptions, context: CommandContext, command: String
    ) throws(CLIError) -> LintEngine {
        let chosen = try targets(arguments.value("targets"), command: command)
        let backend = arguments.value("backend") ?? context.registry.defaultName
        if !context.registry.names.contains(backend) {
            throw .usage("unknown backend '\(backend)' (choose \(context.registry.names.joined(separator: ", ")))", command: command)
        }
        let network = options.network ? NetworkAccess(fetcher: HTTPFetcher()) : nil
        return try LintEngine(
            targets: chosen, coreBackend: backend, registry: context.registry, network: network, command: command)
    }
}
