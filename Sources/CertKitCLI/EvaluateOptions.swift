import CertKit
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
    var crls: [String]
    var pins: [SPKIPin]
    var policy: TrustPolicy
    var verifyDate: Date?
    var maxDepth: Int
    var systemRoots: Bool
    var exceptions: String?
    var saveExceptions: String?
    var backend: BackendChoice
    var json: Bool

    /// Where `--system-roots` reads the system's anchors.
    static let systemBundlePath = "/etc/ssl/certs/ca-certificates.crt"

    /// Validates `arguments`.
    /// - Throws: ``CLIError/usage(_:command:)`` for any inconsistency.
    init(_ arguments: ParsedArguments, registry: BackendRegistry) throws(CLIError) {
        let command = EvaluateCommand.name
        guard let chain = arguments.positionals.first else {
            throw .usage("no CHAIN file given ('-' reads standard input)", command: command)
        }
        guard arguments.positionals.count == 1 else {
            throw .usage("one CHAIN file expected, got \(arguments.positionals.count)", command: command)
        }
        self.chain = chain
        anchors = arguments.all("anchors")
        intermediates = arguments.all("intermediates")
        alwaysTrust = arguments.all("always-trust")
        distrust = arguments.all("distrust")
        crls = arguments.all("crl")
        systemRoots = arguments.has("system-roots")
        exceptions = arguments.value("exceptions")
        saveExceptions = arguments.value("save-exceptions")
        json = arguments.has("json")
        if anchors.isEmpty, !systemRoots, alwaysTrust.isEmpty {
            throw .usage("--anchors FILE is required (or --system-roots, or --always-trust FILE)", command: command)
        }
        let stdinUsers = ([chain] + anchors + intermediates + alwaysTrust + distrust + crls + [exceptions].compactMap { $0 })
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
            guard let value = Int(depth), value >= 1 else {
                throw .usage("--max-depth must be a whole number of at least 1, not '\(depth)'", command: command)
            }
            maxDepth = value
        } else {
            maxDepth = TrustEvaluation.defaultMaxDepth
        }
        policy = try Self.policy(arguments)
        switch arguments.value("backend") {
        case nil: backend = .one(registry.defaultName)
        case "both": backend = .both
        case let name?:
            guard registry.names.contains(name) else {
                throw .usage(
                    "unknown backend '\(name)' (choose \((registry.names + ["both"]).joined(separator: ", ")))",
                    command: command)
            }
            backend = .one(name)
        }
    }

    private static func policy(_ arguments: ParsedArguments) throws(CLIError) -> TrustPolicy {
        let command = EvaluateCommand.name
        let profile: TrustProfile
        switch arguments.value("profile") {
        case nil: profile = .apple
        case let text?:
            guard let value = TrustProfile(rawValue: text) else {
                throw .usage("--profile must be 'apple' or 'rfc5280', not '\(text)'", command: command)
            }
            profile = value
        }
        let names = ["host", "ip", "email"].filter { arguments.value($0) != nil }
        if names.count > 1 {
            throw .usage("--host, --ip and --email exclude each other", command: command)
        }
        var peer: PeerName?
        if let host = arguments.value("host") {
            guard !host.isEmpty else { throw .usage("--host needs a name", command: command) }
            peer = PeerName.parse(host)
        }
        if let ip = arguments.value("ip") {
            let parsed = PeerName.parse(ip)
            guard case .ip = parsed else {
                throw .usage("--ip must be an IPv4 or IPv6 address, not '\(ip)'", command: command)
            }
            peer = parsed
        }
        if let email = arguments.value("email") {
            if let policy = arguments.value("policy") {
                throw .usage("--email selects the email policy; it cannot be combined with --policy \(policy)", command: command)
            }
            guard email.contains("@") else {
                throw .usage("--email must be an address such as user@example.com, not '\(email)'", command: command)
            }
            return .email(address: email, profile: profile)
        }
        switch arguments.value("policy") ?? (peer == nil ? "basic" : "ssl-server") {
        case "basic":
            if peer != nil {
                throw .usage("--host and --ip need --policy ssl-server or ssl-client", command: command)
            }
            return .basicX509
        case "ssl-server": return .ssl(server: true, name: peer, profile: profile)
        case "ssl-client": return .ssl(server: false, name: peer, profile: profile)
        case let other:
            throw .usage("--policy must be basic, ssl-server or ssl-client, not '\(other)'", command: command)
        }
    }

    /// Reads every file and builds the evaluation.
    /// - Throws: ``CLIError/input(file:problem:)`` for a bad file.
    func makeEvaluation(context: CommandContext) throws(CLIError) -> TrustEvaluation {
        let loader = context.loader
        let certificates = try loader.load(chain).certificates
        var anchorCertificates = try loader.loadAll(anchors)
        if systemRoots {
            anchorCertificates += try loader.load(Self.systemBundlePath).certificates
        }
        let exceptionsValue = try exceptions.map { path throws(CLIError) -> TrustExceptions in
            let bytes = try context.reader.read(path)
            do {
                return try TrustExceptions(jsonData: Data(bytes))
            } catch {
                throw .input(file: InputReader.displayName(path), problem: "not a certkit exceptions file: \(Self.reason(error))")
            }
        }
        let crlLoader = CRLLoader(reader: context.reader)
        var revocationLists: [CertificateRevocationList] = []
        for path in crls { revocationLists += try crlLoader.load(path) }
        return TrustEvaluation(
            certificates: certificates, policies: [policy], anchors: anchorCertificates, anchorsOnly: !systemRoots,
            verifyDate: verifyDate,
            trustSettings: TrustSettings(alwaysTrust: try loader.loadAll(alwaysTrust), distrust: try loader.loadAll(distrust)),
            exceptions: exceptionsValue, crls: revocationLists, pins: pins,
            additionalIntermediates: try loader.loadAll(intermediates), maxDepth: maxDepth)
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
