import CertKit
import Foundation

/// One entry of Tests/Fixtures/scenarios.json (schema in Tests/Fixtures/README.md), shared by the conformance
/// suite (every scenario on every backend) and the CLI tests (every scenario through `certkit evaluate`).
public struct ConformanceScenario: Decodable, Sendable {
    public struct Expectation: Decodable, Sendable {
        public var result: String
        public var error: String?
        public var checks: [String: [String]]
        public var chainSubjects: [String]?
    }

    public struct BackendDifference: Decodable, Sendable {
        public var reason: String
        public var expected: Expectation
    }

    public var name: String
    public var description: String
    public var chain: String
    public var anchors: [String]
    public var intermediates: [String]
    public var crls: [String]
    public var alwaysTrust: [String]
    public var distrust: [String]
    public var pins: [String]
    public var exceptions: String?
    public var policy: String
    public var host: String?
    public var ip: String?
    public var email: String?
    public var profile: String
    public var maxDepth: Int?
    public var verifyDate: String
    public var expected: Expectation
    public var backendDifferences: [String: BackendDifference]

    /// The expectation for `backend`, with a documented difference applied.
    public func expectation(for backend: String) -> Expectation {
        backendDifferences[backend]?.expected ?? expected
    }

    /// True when the scenario checks a client certificate against several identities (or an email address).
    var usesClientIdentities: Bool {
        policy == "ssl-client" && (email != nil || (host != nil && ip != nil))
    }

    /// True when the scenario evaluates under the basic policy (which always uses the rfc5280 profile).
    var isBasic: Bool { email == nil && policy != "ssl-server" && policy != "ssl-client" }

    /// The `certkit evaluate --json` command line for this scenario.
    public var commandLine: [String] {
        let base = Fixtures.scenariosDirectory.path + "/"
        var arguments = ["evaluate", "--json", "--at", verifyDate]
        if !isBasic || profile == "rfc5280" { arguments += ["--profile", profile] }
        for (option, files) in [("--anchors", anchors), ("--intermediates", intermediates), ("--crl", crls),
                                ("--always-trust", alwaysTrust), ("--distrust", distrust)] {
            for file in files { arguments += [option, base + file] }
        }
        for pin in pins { arguments += ["--pin", pin] }
        if let exceptions { arguments += ["--exceptions", base + exceptions] }
        if let host { arguments += ["--host", host] }
        if let ip { arguments += ["--ip", ip] }
        if let email { arguments += ["--email", email] }
        if email == nil || usesClientIdentities { arguments += ["--policy", policy] }
        if let maxDepth { arguments += ["--max-depth", String(maxDepth)] }
        return arguments + [base + chain]
    }

    /// Builds the evaluation the scenario describes.
    public func makeEvaluation() throws -> TrustEvaluation {
        let profile = TrustProfile(rawValue: self.profile) ?? .apple
        let name: PeerName? = host.map { PeerName.parse($0) } ?? ip.map { PeerName.parse($0) }
        let trustPolicy: TrustPolicy
        switch policy {
        case "ssl-server": trustPolicy = .ssl(server: true, name: name, profile: profile)
        case "ssl-client" where usesClientIdentities:
            var identities: [GeneralName] = []
            switch host.map({ PeerName.parse($0) }) {
            case .dns(let name)?: identities.append(.dnsName(name))
            case .ip(let bytes)?: identities.append(.ipAddress(bytes))
            case nil: break
            }
            if case .ip(let bytes)? = ip.map({ PeerName.parse($0) }) { identities.append(.ipAddress(bytes)) }
            if let email { identities.append(.email(email)) }
            trustPolicy = .sslClient(identities: identities, profile: profile)
        case "ssl-client": trustPolicy = .ssl(server: false, name: name, profile: profile)
        default: trustPolicy = email.map { .email(address: $0, profile: profile) } ?? .basicX509
        }
        let exceptionsValue = try exceptions.map { try TrustExceptions(jsonData: Fixtures.data($0)) }
        return TrustEvaluation(
            certificates: try Fixtures.certificates(chain),
            policies: [trustPolicy],
            anchors: try anchors.flatMap(Fixtures.certificates),
            verifyDate: try Fixtures.date(verifyDate),
            trustSettings: TrustSettings(
                alwaysTrust: try alwaysTrust.flatMap(Fixtures.certificates),
                distrust: try distrust.flatMap(Fixtures.certificates)),
            exceptions: exceptionsValue,
            crls: try crls.flatMap(Fixtures.crls),
            pins: pins.compactMap { SPKIPin($0) },
            additionalIntermediates: try intermediates.flatMap(Fixtures.certificates),
            maxDepth: maxDepth ?? TrustEvaluation.defaultMaxDepth)
    }
}

/// Loads fixtures relative to Tests/Fixtures.
public enum Fixtures {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    public static let scenariosDirectory = root.appendingPathComponent("scenarios")

    public static func data(_ relative: String) throws -> Data {
        try Data(contentsOf: scenariosDirectory.appendingPathComponent(relative))
    }

    public static func certificates(_ relative: String) throws -> [Certificate] {
        try CertificateBundle.decode([UInt8](data(relative))).certificates
    }

    public static func crls(_ relative: String) throws -> [CertificateRevocationList] {
        let bytes = [UInt8](try data(relative))
        let blocks = try PEM.decode(bytes)
        if blocks.isEmpty { return [try CertificateRevocationList(derEncoded: bytes)] }
        return try blocks.filter { $0.label == "X509 CRL" }.map { try CertificateRevocationList(derEncoded: $0.bytes) }
    }

    public static func date(_ text: String) throws -> Date {
        guard let date = ISO8601DateFormatter().date(from: text) else { throw CocoaError(.formatting) }
        return date
    }

    /// Directory of additional scenario sets: `Tests/Fixtures/scenario-sets/<set>.json`, each written by its
    /// own generator (see Tests/Fixtures/README.md), same schema as scenarios.json.
    public static let scenarioSetsDirectory = root.appendingPathComponent("scenario-sets")

    /// Every scenario: scenarios.json, then each scenario set in file-name order. Names are unique across sets.
    public static let scenarios: [ConformanceScenario] = {
        var files = [root.appendingPathComponent("scenarios.json")]
        let sets = (try? FileManager.default.contentsOfDirectory(atPath: scenarioSetsDirectory.path)) ?? []
        files += sets.filter { $0.hasSuffix(".json") }.sorted().map { scenarioSetsDirectory.appendingPathComponent($0) }
        var all: [ConformanceScenario] = []
        var names = Set<String>()
        for file in files {
            do {
                let decoded = try JSONDecoder().decode([ConformanceScenario].self, from: Data(contentsOf: file))
                for scenario in decoded where !names.insert(scenario.name).inserted {
                    fatalError("\(file.lastPathComponent): scenario name \(scenario.name) is used twice")
                }
                all += decoded
            } catch {
                fatalError("cannot read \(file.lastPathComponent): \(error)")
            }
        }
        return all
    }()
}
