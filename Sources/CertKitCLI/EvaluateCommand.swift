import CertKit
import CertKitBackends
import CertKitSockets
import Foundation

/// `certkit evaluate`: SecTrust-style trust evaluation of a chain.
enum EvaluateCommand: Command {
    static let name = "evaluate"
    static let summary = "evaluate trust in a certificate chain as Apple's SecTrust would"

    /// The options of `evaluate` and `--batch`'s.
    static let options: [OptionSpec] = evaluationOptions + BatchOptions.specs(for: name)

    /// The options of one evaluation (shared with `connect`).
    static let evaluationOptions: [OptionSpec] = [
        .value("anchors", "FILE", repeatable: true,
               "trust only these anchor certificates (with --system-roots, these and the system roots); without --anchors the system roots are the anchors"),
        .value("intermediates", "FILE", repeatable: true, "extra intermediate certificates for path building"),
        .value("host", "NAME", repeatable: true,
               "the server's DNS name or IP literal (implies --policy ssl-server); with ssl-client, an identity the certificate may carry"),
        .value("ip", "ADDR", repeatable: true,
               "the server's IP address (implies --policy ssl-server); with ssl-client, an identity the certificate may carry"),
        .value("email", "ADDR", repeatable: true,
               "check an email address under the email policy; with --policy ssl-client, an identity the certificate may carry"),
        .value("policy", "basic|ssl-server|ssl-client", "policy (default ssl-server with --host/--ip, email with --email, else basic)"),
        .value("profile", "apple|rfc5280|webpki",
               "rule set: apple (default for ssl/email; Apple's trustd), rfc5280 (RFC 5280 as written; always for basic), webpki (CA/B Forum BRs, as browsers apply them); see Docs/Profiles.md"),
        .value("at", "ISO8601", "verify at this time instead of now (e.g. 2030-06-01)"),
        .value("max-depth", "N", "maximum intermediates in a path, leaf and anchor not counted; 0: the leaf is issued by an anchor (default 10)"),
        .flag("system-roots",
              "with --anchors, also trust the system roots (SSL_CERT_FILE and SSL_CERT_DIR, else the distribution's bundle), as they are trusted without --anchors"),
        .value("always-trust", "FILE", repeatable: true, "certificates the user always trusts (result: proceed)"),
        .value("distrust", "FILE", repeatable: true, "certificates the user distrusts (result: deny)"),
        .optionalValue(
            "trust-store", "DIR",
            "also apply the settings of the default trust store ($CERTKIT_STORE, $XDG_DATA_HOME/certkit or ~/.local/share/certkit), or with =DIR of the store in DIR"),
        .value("store", "DIR", "also apply the settings of the trust store in DIR (the same as --trust-store=DIR)"),
        .value("crl", "FILE", repeatable: true, "certificate revocation lists, PEM or DER"),
        .value("ocsp-response", "FILE", repeatable: true, "an OCSP response (DER), as a TLS server staples it"),
        .value("ct-log-list", "FILE",
               "a Certificate Transparency log list (v3 JSON, Google's or Apple's): the apple and webpki profiles then require SCTs of an SSL server leaf that chains to a system root (see Docs/Profiles.md)"),
        .flag("network",
              "allow fetching over http:// from the chain's own URLs: a missing issuer (caIssuers), OCSP responses and CRLs (unless --revocation off)"),
        .value("revocation", "off|crl|ocsp|any", "which revocation sources to use (default any: every one given)"),
        .flag("require-revocation",
              "every certificate below the anchor needs a valid answer that it is not revoked (else RevocationResponseRequired)"),
        .flag("audit",
              "audit mode: the backend's library also runs its own verifier on the path certkit chose; a refusal no certkit rule or known library deviation explains fails as LibraryVerdict (default: certkit's rules decide alone; see Docs/TrustModel.md)"),
        .value("second-opinion", "on|off", "an alias: on is --audit, off the default"),
        .value("pin", "sha256/BASE64", repeatable: true, "SPKI SHA-256 pins; the leaf or a CA must match one"),
        .value("exceptions", "FILE", "exceptions saved by an earlier --save-exceptions"),
        .value("save-exceptions", "FILE", "after a recoverable failure, save exceptions that accept it"),
        .value("backend", BackendRegistry.choices + "|" + BackendRegistry.allBackendsChoice,
               "backend (default \(BackendRegistry.standard.defaultName)); \(BackendRegistry.allBackendsChoice) compares them (exit 3 if they differ)"),
        .flag("json", "print one JSON document (its keys: Docs/CLI.md, section 'evaluate --json')"),
    ]

    static let help = ArgumentParser.help(
        usage: "certkit evaluate [--anchors FILE] [options] CHAIN | --batch FILE|- [--jobs N]",
        summary: """
            Evaluates CHAIN (leaf first, then any intermediates; '-' reads standard input) against the anchors and
            prints the result, the error Apple's SecTrust would report, the chain that was built and where the
            anchors came from. Without --anchors the anchors are the system roots (SSL_CERT_FILE and SSL_CERT_DIR,
            else the distribution's bundle; none found is an input error); --anchors alone trusts only its files.
            """,
        options: options,
        details: """
            With --policy ssl-client, --host, --ip and --email may be repeated: the client certificate must carry at least
            one of them. Every failure names its rule and the profiles that enforce it.

            exit codes: 0 trusted (unspecified, proceed), 10 recoverableTrustFailure, 11 fatalTrustFailure,
            12 deny, 13 otherError, 1 input error, 2 usage error, 3 backends disagree (--backend both)

            \(BatchOptions.evaluateHelp)
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        let options = try EvaluateOptions(arguments, registry: context.registry)
        if let batch = try BatchOptions(arguments, command: name) {
            return try EvaluateBatch.run(batch, options: options, arguments: arguments, context: context)
        }
        let (evaluation, sources) = try options.makeEvaluationAndSources(context: context)
        return try report(evaluation, options: options, notes: options.notes(anchorSources: sources), context: context)
    }

    /// Evaluates `evaluation` with the backends `options` selects, prints the verdict (with `notes`), saves
    /// exceptions when asked, and returns the exit code.
    static func report(
        _ evaluation: TrustEvaluation, options: EvaluateOptions, notes: ReportNotes, context: CommandContext
    ) throws(CLIError) -> ExitCode {
        let names: [String]
        switch options.backend {
        case .one(let name): names = [name]
        case .both: names = context.registry.names
        }
        // One network cache for every backend's evaluator: each URL is fetched once per run while fresh.
        let network = options.network ? NetworkAccess(fetcher: HTTPFetcher()) : nil
        let reports = names.map { name in
            TrustEvaluator(
                backend: context.registry.backend(named: name)!, configuration: options.evaluatorConfiguration,
                network: network
            ).evaluate(evaluation)
        }
        let agree = BackendComparison.agree(reports)
        if agree {
            let output: String
            if options.json {
                output = reports.count > 1
                    ? EvaluateJSONRenderer.renderAgreement(reports, notes: notes)
                    : EvaluateJSONRenderer.render(reports[0], notes: notes)
            } else {
                output = EvaluateTextRenderer.render(reports[0], notes: notes)
                    + (reports.count > 1 ? "both backends agree (\(names.joined(separator: ", ")))\n" : "")
            }
            context.stdout.write(output)
        } else {
            context.stdout.write(
                options.json
                    ? EvaluateJSONRenderer.renderDisagreement(reports, notes: notes)
                    : reports.map { "\($0.backend):\n" + EvaluateTextRenderer.render($0, notes: notes) }.joined()
                        + "backends disagree (\(names.joined(separator: ", ")))\n")
        }
        if let path = options.saveExceptions {
            try saveExceptions(agree ? reports[0] : nil, to: path, context: context)
        }
        return agree ? ExitCode(result: reports[0].result) : .backendsDisagree
    }

    /// Writes the report's exceptions to `path`, or says on stderr why there is nothing to save.
    private static func saveExceptions(_ report: TrustReport?, to path: String, context: CommandContext) throws(CLIError) {
        guard let report else {
            context.stderr.write("certkit: \(path): nothing saved: the backends disagree\n")
            return
        }
        guard let exceptions = report.exceptions else {
            context.stderr.write(
                "certkit: \(path): nothing saved: exceptions exist only for recoverableTrustFailure, the result is \(report.result)\n")
            return
        }
        let writer = AtomicFileWriter()
        try writer.stage(Array(exceptions.jsonData()), to: path)
        try writer.commit()
    }
}
