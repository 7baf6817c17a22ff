import CertKit
import CertKitBackends
import CertKitSockets
import Foundation

/// `certkit connect`: captures the chain a TLS server presents (the TLS library does not decide trust) and
/// evaluates it exactly as `certkit evaluate` would, with the same options, output and exit codes.
enum ConnectCommand: Command {
    static let name = "connect"
    static let summary = "connect to a TLS server and evaluate the chain it presents"
    static let operands = OptionSpec.ValueKind.text

    /// The default bound on connecting plus the handshake, in seconds.
    static let defaultTimeout = 10.0

    private static let connectOptions: [OptionSpec] = [
        .value("servername", "NAME", "the SNI name to send (default HOST; none for an IP literal)"),
        .value("timeout", "S", "give up connecting and handshaking after S seconds (default 10)"),
        .value("tls", BackendRegistry.choices,
               "the TLS library that performs the handshake (default \(BackendRegistry.standard.defaultName))"),
        .value("save-chain", "FILE", "write the chain the server presented as PEM"),
        .flag("show-chain", "print the chain the server presented before the verdict (text output only)"),
        .value("identity", "FILE.p12", "present this PKCS#12 client identity when the server requests a certificate"),
        .value("cert", "FILE", "present this client certificate (PEM, leaf first, then intermediates) with --key"),
        .value("key", "FILE", "the private key of --cert (PEM or DER; encrypted keys need a password option)"),
        .flag("lint", "lint the chain the server sent instead of evaluating it: every target's verdict and every broken rule, as 'certkit lint'"),
    ] + LintCommand.lintOptions + IdentityInput.passwordOptions

    static let options = connectOptions + EvaluateCommand.evaluationOptions

    static let help = ArgumentParser.help(
        usage: "certkit connect HOST[:PORT] [--anchors FILE] [options]",
        summary: """
            Connects to HOST (port 443 unless given; IPv6 as [ADDR]:PORT), completes a TLS handshake without letting
            the TLS library judge the certificate, and evaluates the presented chain as 'certkit evaluate' does.
            The SSL server policy checks the --servername, else HOST, unless --host, --ip, --email or --policy basic
            says otherwise. Without --anchors the anchors are the system roots, as for evaluate.
            With --identity (or --cert and --key) the client certificate is presented when the server asks for one;
            a server that refuses it, or requires one when none is given, is a connection error (exit 1), also
            under TLS 1.3, where connect waits up to one second after the handshake for the server's verdict.
            Only an alert is a refusal; a session ticket, data or a close is not.
            Passwords come from --password-file or --password-env, never from the command line.
            """,
        options: options,
        details: """
            exit codes: 0 trusted (unspecified, proceed), 10 recoverableTrustFailure, 11 fatalTrustFailure,
            12 deny, 13 otherError, 1 input or connection error, 2 usage error, 3 backends disagree (--backend both);
            with --lint: 0 every target trusts the chain, 10 some target refuses it
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        guard arguments.positionals.count == 1, let text = arguments.positionals.first else {
            throw .usage(
                "one HOST[:PORT] expected, got \(arguments.positionals.count)"
                    + (arguments.has("trust-store") ? " (a trust store is named by --trust-store=DIR or --store DIR)" : ""),
                command: name)
        }
        guard let target = ConnectTarget(text) else {
            throw .usage("'\(text)' is not HOST[:PORT] (a port is 1-65535; write IPv6 as [ADDR]:PORT)", command: name)
        }
        let client = try tlsClient(arguments.value("tls"), registry: context.registry)
        let importer = context.registry.entry(named: client.name)?.identityImporter()
            ?? context.registry.entries[0].identityImporter()
        let identity = try IdentityInput.load(arguments, context: context, importer: importer, command: name)
        let timeout = try timeout(arguments.value("timeout"))
        let json = arguments.has("json")
        if json, arguments.has("show-chain") {
            throw .usage("--show-chain prints text; with --json use --save-chain FILE", command: name)
        }
        let lint = arguments.has("lint")
        if !lint, arguments.value("targets") != nil { throw .usage("--targets needs --lint", command: name) }
        var evaluationArguments = arguments
        if lint {
            // lint judges the chain under the SSL server policy, the profile set by each target.
            if arguments.value("policy") != nil || arguments.value("profile") != nil {
                throw .usage("--lint judges every target under the SSL server policy; no --policy or --profile", command: name)
            }
            evaluationArguments.values["policy"] = [PolicyName.sslServer.rawValue]
        }
        let options = try evaluateOptions(evaluationArguments, target: target, context: context)
        let engine = lint
            ? try LintCommand.engine(arguments, options: options, context: context, command: name) : nil
        let made = try options.makeEvaluationAndSources(certificates: [], context: context)
        var evaluation = made.evaluation
        let sources = made.anchorSources

        let serverName = arguments.value("servername") ?? (target.isIPLiteral ? nil : target.host)
        let chain: [Certificate]
        let skipped: [SkippedCertificate]
        let presented: [[UInt8]]
        let stapled: [UInt8]?
        let timestamps: [UInt8]?
        do {
            let capture = try client.capture(
                host: target.host, port: target.port, serverName: serverName, timeout: timeout, identity: identity)
            // Only the leaf must decode; a later certificate that does not is left out and reported.
            (chain, skipped) = try capture.poolCertificates()
            presented = capture.chain
            stapled = capture.stapledOCSPResponse
            timestamps = capture.signedCertificateTimestamps
        } catch let error where error.code == .clientCertificateRequired {
            throw .input(
                file: target.description, problem: "\(error.description); use --identity FILE.p12 or --cert FILE --key FILE")
        } catch {
            throw .input(file: target.description, problem: error.description)
        }
        if let path = arguments.value("save-chain") {
            let writer = AtomicFileWriter()
            // As presented: a certificate that does not decode is saved too (it is what the server sent).
            try writer.stage(Array(presented.map { PEM.encode($0) }.joined().utf8), to: path)
            try writer.commit()
        }
        if arguments.has("show-chain") {
            let digests = try context.registry.resolve(nil, command: name)
            context.stdout.write(try presentedChainText(
                chain, skipped: skipped, target: target, library: client.name, digests: digests))
        }
        evaluation.certificates = chain
        evaluation.skippedCertificates.insert(contentsOf: skipped, at: 0)
        // The SCTs the server sent in the TLS extension: judged by the core with --ct-log-list (one that does not
        // parse gives no SCT, and the report says so).
        if let timestamps { evaluation.tlsSignedCertificateTimestamps = [timestamps] }
        var stapledResponses: [OCSPResponse] = []
        if let stapled {
            // The stapled response is validated by the core like --ocsp-response; one that does not even decode
            // is no answer (said on stderr), never a positive one.
            do {
                stapledResponses.append(try OCSPResponse(derEncoded: stapled))
                evaluation.ocspResponses += stapledResponses
            } catch {
                context.stderr.write("certkit: \(target): the stapled OCSP response is not used: \(error.message)\n")
            }
        }
        let notes = options.notes(anchorSources: sources, stapled: stapledResponses)
        if let engine {
            return LintCommand.report(engine.lint(evaluation, notes: notes), json: json, context: context)
        }
        return try EvaluateCommand.report(evaluation, options: options, notes: notes, context: context)
    }

    /// The evaluate options for this connection: the SSL policy checks the `--servername` (what was asked for, as
    /// a browser checks it), else the target host, unless the user named another peer or chose the basic policy.
    private static func evaluateOptions(
        _ arguments: ParsedArguments, target: ConnectTarget, context: CommandContext
    ) throws(CLIError) -> EvaluateOptions {
        var evaluateArguments = arguments
        evaluateArguments.positionals = [target.description]
        let namesPeer = ["host", "ip", "email"].contains { arguments.value($0) != nil }
        var origin: String?
        if !namesPeer, arguments.value("policy") != PolicyName.basic.rawValue {
            if let serverName = arguments.value("servername") {
                evaluateArguments.values["host"] = [serverName]
                origin = "--servername"
            } else {
                evaluateArguments.values["host"] = [target.host]
                origin = "the target \(target.description)"
            }
        }
        do {
            var options = try EvaluateOptions(evaluateArguments, registry: context.registry)
            if let origin { options.peerNameOrigin = origin }
            return options
        } catch .usage(let problem, _) {
            throw .usage(problem, command: name)
        } catch {
            throw error
        }
    }

    private static func tlsClient(_ choice: String?, registry: BackendRegistry) throws(CLIError)
        -> any TLSChainFetcher
    {
        let wanted = choice ?? registry.defaultName
        guard let entry = registry.entry(named: wanted) else {
            throw .usage("--tls must be \(registry.names.joined(separator: " or ")), not '\(wanted)'", command: name)
        }
        return entry.tlsClient()
    }

    private static func timeout(_ text: String?) throws(CLIError) -> Duration {
        guard let text else { return .seconds(defaultTimeout) }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw .usage("--timeout must be a number of seconds greater than 0, not '\(text)'", command: name)
        }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    /// One line per presented certificate, in the server's order; one that does not decode (`skipped`, by its
    /// index in the presented chain) says so in its place.
    static func presentedChainText(
        _ chain: [Certificate], skipped: [SkippedCertificate] = [], target: ConnectTarget, library: String,
        digests: any TrustBackend
    ) throws(CLIError) -> String {
        let count = chain.count + skipped.count
        var lines = ["\(DisplayText.escaped(target.description)) presented \(count) certificate\(count == 1 ? "" : "s") (\(library)):"]
        let undecodable = Dictionary(skipped.map { ($0.index, $0.reason) }, uniquingKeysWith: { first, _ in first })
        var decoded = chain.makeIterator()
        for index in 0..<count {
            if let reason = undecodable[index] {
                lines.append("  [\(index)] does not decode (left out of the pool): \(DisplayText.escaped(reason))")
                continue
            }
            guard let certificate = decoded.next() else { break }
            let fingerprint: [UInt8]
            do { fingerprint = try digests.digest(.sha256, of: certificate.derEncoded) } catch {
                throw .input(file: target.description, problem: "cannot digest certificate \(index): \(error.message)")
            }
            lines.append(
                "  [\(index)] \(NameText.display(certificate.subject))  (issuer \(NameText.display(certificate.issuer)))  sha256 "
                    + Hex.encode(fingerprint))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
