import CertKit
import CertKitBackends
import Foundation

/// The checked, typed options of `certkit evaluate`, before any file is read.
struct EvaluateOptions {
    /// What `--backend` selects: one backend, or every backend for comparison.
    enum BackendChoice: Equatable {
        case one(String)
        case both
    }

    var chain: String
    var anchors: [String]
    var intermediates: [String]
    var alwaysTrust: [String]
    var distrust: [String]
    /// True when `--trust-store` was given; ``trustStoreDirectory`` is its `=DIR`, nil for the default store.
    var useTrustStore: Bool
    var trustStoreDirectory: String?
    var crls: [String]
    var ocspResponses: [String]
    /// `--ct-log-list FILE`: a Certificate Transparency log list (v3 JSON); nil: CT is not evaluated.
    var ctLogList: String?
    var revocationMode: RevocationMode
    var requireRevocation: Bool
    /// `--network`: the evaluation may fetch missing issuers over http://.
    var network: Bool
    var pins: [SPKIPin]
    /// Where the SSL policy's peer name comes from, for the SSLHostname message: `--host`, `--ip` (connect:
    /// `--servername` or the target); nil without one.
    var peerNameOrigin: String?
    var policy: TrustPolicy
    var verifyDate: Date?
    var maxDepth: Int
    /// `--system-roots`: the system roots join the `--anchors` (without `--anchors` they are used anyway).
    var systemRoots: Bool
    var exceptions: String?
    var saveExceptions: String?
    var backend: BackendChoice
    var json: Bool
    /// `--audit` (or its alias `--second-opinion on`): the backend's library also judges the path the core chose
    /// (default off: the core decides alone).
    var audit: Bool

    /// True when the system roots are anchors: with `--system-roots`, or when no `--anchors` is given (as a
    /// `SecTrust` without `SecTrustSetAnchorCertificates` uses them). `--anchors` alone means only those.
    var usesSystemRoots: Bool { systemRoots || anchors.isEmpty }

    /// The evaluator's configuration: no result cache (each run evaluates), the audit mode as chosen.
    var evaluatorConfiguration: TrustEvaluator.Configuration {
        TrustEvaluator.Configuration(libraryAudit: audit)
    }


    /// Validates `arguments`.
    /// - Throws: ``CLIError/usage(_:command:)`` for any inconsistency.
    init(_ arguments: ParsedArguments, registry: BackendRegistry) throws(CLIError) {
        let command = EvaluateCommand.name
        let batch = arguments.value("batch")
        if batch != nil {
            // --batch: the chains come from the batch input, one per line.
            guard arguments.positionals.isEmpty else {
                throw .usage("--batch reads its chains from its input; no CHAIN argument", command: command)
            }
            if arguments.value("save-exceptions") != nil {
                throw .usage("--save-exceptions saves one evaluation's exceptions; not with --batch", command: command)
            }
            self.chain = ""
        } else {
            guard let chain = arguments.positionals.first else {
                throw .usage("no CHAIN file given ('-' reads standard input)", command: command)
            }
            guard arguments.positionals.count == 1 else {
                throw .usage(
                    "one CHAIN file expected, got \(arguments.positionals.count)"
                        + (arguments.has("trust-store") ? " (a trust store is named by --trust-store=DIR or --store DIR)" : ""),
                    command: command)
            }
            self.chain = chain
        }
        anchors = arguments.all("anchors")
        intermediates = arguments.all("intermediates")
        alwaysTrust = arguments.all("always-trust")
        distrust = arguments.all("distrust")
        if arguments.value("store") != nil, arguments.value("trust-store") != nil {
            throw .usage("--store DIR and --trust-store=DIR both name a trust store; give one", command: command)
        }
        trustStoreDirectory = arguments.value("store") ?? arguments.value("trust-store")
        useTrustStore = arguments.has("trust-store") || trustStoreDirectory != nil
        crls = arguments.all("crl")
        ocspResponses = arguments.all("ocsp-response")
        ctLogList = arguments.value("ct-log-list")
        requireRevocation = arguments.has("require-revocation")
        network = arguments.has("network")
        if let mode = arguments.value("revocation") {
            guard let value = RevocationMode(rawValue: mode) else {
                throw .usage("--revocation must be off, crl, ocsp or any, not '\(mode)'", command: command)
            }
            revocationMode = value
        } else {
            revocationMode = .any
        }
        if requireRevocation, revocationMode == .off {
            throw .usage("--require-revocation needs a revocation source (not --revocation off)", command: command)
        }
        systemRoots = arguments.has("system-roots")
        exceptions = arguments.value("exceptions")
        saveExceptions = arguments.value("save-exceptions")
        json = arguments.has("json")
        switch arguments.value("second-opinion") {
        case nil: audit = arguments.has("audit")
        case "on"?: audit = true
        case "off"?:
            if arguments.has("audit") { throw .usage("--audit and --second-opinion off contradict each other", command: command) }
            audit = false
        case let other?: throw .usage("--second-opinion must be on or off, not '\(other)'", command: command)
        }
        let stdinUsers = ([chain, batch].compactMap { $0 } + anchors + intermediates + alwaysTrust + distrust + crls + ocspResponses + [exceptions, ctLogList].compactMap { $0 })
            .filter { $0 == "-" }
        if stdinUsers.count > 1 { throw .usage("standard input ('-') can be read only once", command: command) }

        pins = try arguments.all("pin").map { text throws(CLIError) -> SPKIPin in
            guard let pin = SPKIPin(text) else {
                throw .usage("--pin must be sha256/ followed by the base64 of 32 bytes, not '\(text)'", command: command)
            }
            return pin
        }
        verifyDate = try arguments.value("at").map { text throws(CLIError) in
            try InspectCommand.parseDate(text, command: command)
        }
        if let depth = arguments.value("max-depth") {
            guard let value = Int(depth), value >= 0 else {
                throw .usage("--max-depth must be a whole number of intermediates (0 or more), not '\(depth)'", command: command)
            }
            maxDepth = value
        } else {
            maxDepth = TrustEvaluation.defaultMaxDepth
        }
        policy = try Self.policy(arguments)
        peerNameOrigin = arguments.value("host") != nil ? "--host" : arguments.value("ip") != nil ? "--ip" : nil
        switch arguments.value("backend") {
        case nil: backend = .one(registry.defaultName)
        case BackendRegistry.allBackendsChoice?: backend = .both
        case let name?:
            guard registry.names.contains(name) else {
                throw .usage(
                    "unknown backend '\(name)' (choose \((registry.names + [BackendRegistry.allBackendsChoice]).joined(separator: ", ")))",
                    command: command)
            }
            backend = .one(name)
        }
    }

    /// What the renderers say besides the report: `anchorSources`, where the peer name came from, the revocation
    /// options, and the OCSP responses a server stapled (`stapled`).
    func notes(anchorSources: AnchorSources?, stapled: [OCSPResponse] = []) -> ReportNotes {
        ReportNotes(
            anchorSources: anchorSources, peerNameOrigin: peerNameOrigin, network: network,
            revocationMode: revocationMode, stapledResponses: stapled)
    }

    /// The profiles `--profile` accepts, in help order.
    static let profileNames = TrustProfile.allCases.map(\.rawValue)

    /// The policy of `--policy`, `--profile`, `--host`, `--ip` and `--email`, made by the core's one reading of
    /// those option strings (``PolicyOptions``, shared with the test scenarios); this only words its problems.
    /// `--batch` lines reuse it with their own values.
    static func policy(_ arguments: ParsedArguments) throws(CLIError) -> TrustPolicy {
        try policy(PolicyOptions(
            policy: arguments.value("policy"), profile: arguments.value("profile"), hosts: arguments.all("host"),
            ips: arguments.all("ip"), emails: arguments.all("email")))
    }

    /// The policy `options` describe.
    static func policy(_ options: PolicyOptions) throws(CLIError) -> TrustPolicy {
        do {
            return try options.trustPolicy()
        } catch {
            throw .usage(usageMessage(error), command: EvaluateCommand.name)
        }
    }

    /// The usage error for a policy problem, naming the options involved.
    static func usageMessage(_ problem: PolicyOptions.Problem) -> String {
        switch problem {
        case .unknownProfile(let text): "--profile must be \(profileNames.joined(separator: ", ")), not '\(text)'"
        case .emptyHost: "--host needs a name"
        case .notAnIPAddress(let text): "--ip must be an IPv4 or IPv6 address, not '\(text)'"
        case .notAnEmailAddress(let text): "--email must be an address such as user@example.com, not '\(text)'"
        case .identitiesUnderBasic: "--host, --ip and --email need --policy ssl-server or ssl-client (or --email alone)"
        case .profileUnderBasic(let profile): "--policy basic always uses --profile rfc5280, not \(profile.rawValue)"
        case .emailPolicyNeedsOneEmail:
            "the email policy checks one --email; to accept any of several identities use --policy ssl-client"
        case .emailUnderSSLServer:
            "--email cannot be checked under --policy ssl-server (use ssl-client or the email policy)"
        case .severalIdentitiesUnderSSLServer:
            "--policy ssl-server checks one --host or --ip; several identities are for ssl-client"
        case .unknownPolicy(let text): "--policy must be basic, ssl-server or ssl-client, not '\(text)'"
        }
    }

    /// Reads every file and builds the evaluation.
    /// - Throws: ``CLIError/input(file:problem:)`` for a bad file.
    func makeEvaluation(context: CommandContext) throws(CLIError) -> TrustEvaluation {
        try makeEvaluationAndSources(context: context).evaluation
    }

    /// ``makeEvaluation(context:)`` and where its anchors come from.
    func makeEvaluationAndSources(context: CommandContext) throws(CLIError)
        -> (evaluation: TrustEvaluation, anchorSources: AnchorSources)
    {
        // Only the leaf must decode: a later certificate that does not is left out and reported.
        let (certificates, skipped) = try context.loader.loadChain(chain)
        var (evaluation, sources) = try makeEvaluationAndSources(certificates: certificates, context: context)
        evaluation.skippedCertificates.insert(contentsOf: skipped, at: 0)
        return (evaluation, sources)
    }

    /// Reads every file except the chain and builds the evaluation of `certificates` (leaf first).
    /// - Throws: ``CLIError/input(file:problem:)`` for a bad file.
    func makeEvaluation(certificates: [Certificate], context: CommandContext) throws(CLIError) -> TrustEvaluation {
        try makeEvaluationAndSources(certificates: certificates, context: context).evaluation
    }

    /// ``makeEvaluation(certificates:context:)`` and where its anchors come from.
    func makeEvaluationAndSources(certificates: [Certificate], context: CommandContext) throws(CLIError)
        -> (evaluation: TrustEvaluation, anchorSources: AnchorSources)
    {
        let loader = context.loader
        var sources = AnchorSources()
        var anchorCertificates: [Certificate] = []
        for path in anchors {
            let loaded = try loader.loadAll([path])
            anchorCertificates += loaded
            sources.sources.append(.init(kind: .anchors, path: InputReader.displayName(path), certificates: loaded.count))
        }
        // The pool: a certificate that does not decode is left out and reported, never a reason to stop.
        var intermediateCertificates: [Certificate] = []
        var skipped: [SkippedCertificate] = []
        for path in intermediates {
            let pool = try loader.loadPool(path)
            intermediateCertificates += pool.certificates
            skipped += pool.skipped
        }
        // The system roots are the core's (SystemTrustStore, anchorsOnly false), exactly as for a library user:
        // never passed as app-supplied anchors. None found fails closed: an input error, never an empty set that
        // leaves every chain untrusted without saying why.
        if usesSystemRoots {
            if let problem = SystemTrustStore.problem {
                throw .input(
                    file: SystemTrustStore.bundlePath ?? "system roots",
                    problem: problem + (systemRoots ? "" : " (the system roots are used when no --anchors FILE is given)"))
            }
            let count = SystemTrustStore.certificates.count
            sources.sources += SystemTrustStore.sources.map { .init(kind: .systemRoots, path: $0, certificates: count) }
        }
        var alwaysTrusted: [Certificate] = []
        for path in alwaysTrust {
            let loaded = try loader.loadAll([path])
            alwaysTrusted += loaded
            sources.sources.append(.init(kind: .alwaysTrust, path: InputReader.displayName(path), certificates: loaded.count))
        }
        let exceptionsValue = try exceptions.map { path throws(CLIError) -> TrustExceptions in
            let bytes = try context.reader.read(path)
            do {
                return try TrustExceptions(jsonData: Data(bytes))
            } catch {
                throw .input(file: InputReader.displayName(path), problem: "not a certkit exceptions file: \(Self.reason(error))")
            }
        }
        // The store's settings come after the command line's (--distrust still denies whatever the store says).
        let (stored, storeDirectory) = try storeSettings(context: context)
        if let storeDirectory {
            sources.sources.append(.init(kind: .trustStore, path: storeDirectory, certificates: stored.count))
        }
        let revocationLoader = RevocationFileLoader(reader: context.reader)
        var revocationLists: [CertificateRevocationList] = []
        for path in crls { revocationLists += try revocationLoader.load(path) }
        let responses = try ocspResponses.map { path throws(CLIError) in try revocationLoader.loadOCSPResponse(path) }
        var evaluation = TrustEvaluation(
            certificates: certificates, policies: [policy], anchors: anchorCertificates, anchorsOnly: !usesSystemRoots,
            verifyDate: verifyDate,
            trustSettings: TrustSettings(
                alwaysTrust: alwaysTrusted, distrust: try loader.loadAll(distrust),
                certificateSettings: stored),
            exceptions: exceptionsValue, crls: revocationLists, pins: pins,
            additionalIntermediates: intermediateCertificates, maxDepth: maxDepth,
            ocspResponses: responses, revocationMode: revocationMode, requireRevocation: requireRevocation,
            networkFetchAllowed: network)
        evaluation.skippedCertificates = skipped
        evaluation.certificateTransparencyLogList = try ctLogList.map { path throws(CLIError) in
            try revocationLoader.loadLogList(path)
        }
        return (evaluation, sources)
    }

    /// The trust store's settings and its directory when `--trust-store` was given, else none.
    /// - Throws: an input error naming the store file when it is corrupt, newer or unreadable.
    private func storeSettings(context: CommandContext) throws(CLIError)
        -> (settings: [CertificateTrustSettings], directory: String?)
    {
        guard useTrustStore else { return ([], nil) }
        let directory = try TrustStoreOption.existingDirectory(
            trustStoreDirectory, environment: context.environment, command: EvaluateCommand.name)
        let store = TrustStoreOption.store(directory, context: context)
        let settings = try TrustStoreOption.run(command: EvaluateCommand.name) { () throws(TrustStoreError) in
            try store.entries().map(\.settings)
        }
        return (settings, directory)
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "missing key '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "bad value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        default: "invalid JSON"
        }
    }
}
