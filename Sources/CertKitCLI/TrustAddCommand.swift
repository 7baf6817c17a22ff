import CertKit
import Foundation

/// `certkit trust add`: gives certificates a trust setting in the store (`security add-trusted-cert -r RESULT
/// -p POLICY -s HOST`).
enum TrustAddCommand: Command {
    static let name = "trust add"
    static let summary = "add a certificate with a trust setting (from a file, standard input or a URL)"

    /// The default bound on a download, in seconds.
    static let defaultTimeout = 30.0

    static let options: [OptionSpec] = [
        .value("result", "trustRoot|trustAsRoot|deny|unspecified",
               "the setting's result (default trustRoot for a self-signed certificate, else trustAsRoot)"),
        .value("policy", "basic|ssl-server|ssl-client", "limit the setting to this policy (default: every policy)"),
        .value("host", "NAME", "limit the setting to this SSL host name or IP address (implies --policy ssl-server)"),
        .value("allow", "CHECK", repeatable: true,
               "accept this recoverable failure on the certificate, e.g. TemporalValidity, SSLHostname"),
        .value("distrust-after", "ISO8601",
               "distrust chains through the certificate (anchor or intermediate) for leaves issued after this date"),
        .value("sha256", "HEX", "add only the certificate with this SHA-256 (required for a URL; a mismatch is refused)"),
        .value("timeout", "S", "give up a download after S seconds (default 30)"),
        TrustCommand.storeOption,
    ]

    static let help = ArgumentParser.help(
        usage: "certkit trust add [--result R] [--policy P] [--host NAME] [--allow CHECK ...] [--distrust-after ISO8601] [--sha256 HEX] [--store DIR] FILE|URL|-",
        summary: """
            Adds a trust setting for each certificate of FILE ('-' for standard input; any format 'certkit convert'
            reads) or of an http:// or https:// URL, which needs --sha256 with the fingerprint checked out of band
            (a download with another SHA-256 is refused). Prints what it added.
            """,
        options: options,
        details: """
            A certificate's settings are kept newest first: the first that applies to an evaluation's policy and
            host and says trustRoot, trustAsRoot or deny decides. Adding a setting with the same policy and host as
            an existing one replaces it. trustRoot and trustAsRoot make the certificate an anchor (result proceed),
            deny makes any chain through it deny, unspecified only carries --allow (and --distrust-after).
            --distrust-after DATE: a chain through the certificate, as its anchor or an intermediate, is not trusted
            (AnchorTrusted, recoverable) for a leaf issued after DATE, judged by the leaf's notBefore; a leaf issued
            at DATE still is. With --result unspecified it limits a system root without adding an anchor. PEM
            exports cannot carry the date (they say so in a comment line).
            Checks --allow accepts: \(TrustCheck.allCases.filter(\.isExceptionAllowed).map(\.rawValue).joined(separator: ", ")).
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        guard arguments.positionals.count == 1, let source = arguments.positionals.first else {
            throw .usage("one FILE, URL or '-' expected, got \(arguments.positionals.count)", command: name)
        }
        let result = try arguments.value("result").map { text throws(CLIError) -> TrustSettings.Result in
            guard let result = TrustSettings.Result(rawValue: text) else {
                throw .usage("--result must be \(TrustSettings.Result.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'", command: name)
            }
            return result
        }
        var policy = try arguments.value("policy").map { text throws(CLIError) -> TrustSettings.Policy in
            guard let policy = TrustSettings.Policy(rawValue: text) else {
                throw .usage("--policy must be \(TrustSettings.Policy.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'", command: name)
            }
            return policy
        }
        let host = arguments.value("host")
        if let host {
            if host.isEmpty { throw .usage("--host needs a name", command: name) }
            if policy == .basic { throw .usage("--host limits only the ssl-server and ssl-client policies", command: name) }
            policy = policy ?? .sslServer
        }
        let allowed = try Set(arguments.all("allow").map { text throws(CLIError) -> TrustCheck in
            guard let check = TrustCheck(rawValue: text) else {
                throw .usage("--allow takes a check name such as TemporalValidity or SSLHostname, not '\(text)'", command: name)
            }
            guard check.isExceptionAllowed else {
                throw .usage("--allow \(text): only recoverable checks can be allowed, and never Signature, RevocationResponseRequired or PathBuildingLimit", command: name)
            }
            return check
        })
        let distrustAfter = try arguments.value("distrust-after").map { text throws(CLIError) -> Date in
            guard let date = DateText.parse(text) else {
                throw .usage(
                    "--distrust-after must be an ISO 8601 date such as 2026-01-01 or 2026-01-01T00:00:00Z, not '\(text)'",
                    command: name)
            }
            return date
        }
        let fingerprint = try arguments.value("sha256").map { text throws(CLIError) -> [UInt8] in
            guard let bytes = Hex.decode(text), bytes.count == 32 else {
                throw .usage("--sha256 must be the 64 hex digits of a SHA-256 (':' separators allowed), not '\(text)'", command: name)
            }
            return bytes
        }
        let store = try TrustCommand.store(arguments, context: context, command: name)
        let backend = context.registry.backend(named: context.registry.defaultName)!

        // The certificates: from a URL only with a fingerprint, else from a file or standard input.
        var certificates: [Certificate]
        let sourceName: String
        if HTTPDownload.isURL(source) {
            guard fingerprint != nil else {
                throw .usage("a certificate from a URL needs --sha256 HEX, its fingerprint checked out of band", command: name)
            }
            let bytes = try HTTPDownload(timeout: try timeout(arguments.value("timeout"))).fetch(source)
            do {
                certificates = try CertificateBundle.decode(bytes).certificates
            } catch {
                throw .input(file: source, problem: error.message)
            }
            guard !certificates.isEmpty else { throw .input(file: source, problem: "no certificate found") }
            sourceName = source
        } else {
            if arguments.value("timeout") != nil { throw .usage("--timeout is for a URL", command: name) }
            certificates = try context.loader.load(source).certificates
            sourceName = InputReader.displayName(source)
        }
        if let fingerprint {
            var digests: [[UInt8]] = []
            for certificate in certificates {
                do {
                    digests.append(try backend.digest(.sha256, of: certificate.derEncoded))
                } catch {
                    throw .backend(name: backend.name, problem: error.message)
                }
            }
            guard let match = digests.firstIndex(of: fingerprint) else {
                let found = digests.map(Hex.encode).joined(separator: ", ")
                throw .input(
                    file: sourceName,
                    problem: "refused: no certificate has SHA-256 \(Hex.encode(fingerprint)) (found \(MessageText.line(found, limit: 200)))")
            }
            certificates = [certificates[match]]
        }
        // Every setting is checked before the store changes.
        let constraints = certificates.map { certificate in
            TrustSettings.UsageConstraint(
                result: result ?? .anchor(for: certificate), policy: policy, host: host, allowedErrors: allowed,
                distrustAfter: distrustAfter)
        }
        for (certificate, constraint) in zip(certificates, constraints) {
            if let problem = constraint.problem(for: certificate) {
                // The error line is escaped once where it is written; the name is not escaped twice here.
                throw .usage("\(NameText.display(certificate.subject)): \(problem)", command: name)
            }
        }
        for (certificate, constraint) in zip(certificates, constraints) {
            let entry = try TrustStoreOption.run(command: name) { () throws(TrustStoreError) in
                try store.add(certificate, constraint: constraint)
            }
            context.stdout.write("added \(DisplayText.escaped(constraint.summary))\n" + TrustStoreOption.text(entry))
        }
        return .success
    }

    private static func timeout(_ text: String?) throws(CLIError) -> Duration {
        guard let text else { return .seconds(defaultTimeout) }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw .usage("--timeout must be a number of seconds greater than 0, not '\(text)'", command: name)
        }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }
}
