import CertKit
import CertKitCLI
import Foundation

/// One entry of Tests/Fixtures/scenarios.json (schema in Tests/Fixtures/README.md), shared by the conformance
/// suite (every scenario on every backend) and the CLI tests (every scenario through `certkit evaluate`).
package struct ConformanceScenario: Decodable, Sendable {
    package struct Expectation: Decodable, Sendable {
        package var result: String
        package var error: String?
        package var checks: [String: [String]]
        package var chainSubjects: [String]?
    }

    package struct BackendDifference: Decodable, Sendable {
        package var reason: String
        package var expected: Expectation
    }

    package var name: String
    package var description: String
    package var chain: String
    package var anchors: [String]
    package var intermediates: [String]
    package var crls: [String]
    package var alwaysTrust: [String]
    package var distrust: [String]
    package var pins: [String]
    package var exceptions: String?
    package var policy: String
    package var host: String?
    package var ip: String?
    package var email: String?
    package var profile: String
    package var maxDepth: Int?
    package var verifyDate: String
    package var expected: Expectation
    package var backendDifferences: [String: BackendDifference]

    /// The expectation for `backend`, with a documented difference applied.
    package func expectation(for backend: String) -> Expectation {
        backendDifferences[backend]?.expected ?? expected
    }

    /// True when the scenario checks a client certificate against several identities (or an email address).
    var usesClientIdentities: Bool {
        policy == PolicyName.sslClient.rawValue && (email != nil || (host != nil && ip != nil))
    }

    /// The scenario's policy as the option strings `certkit evaluate` takes. The policy name is left out when an
    /// email address alone chooses the email policy, the profile under the basic policy unless it is rfc5280.
    package var policyOptions: PolicyOptions {
        let isBasic = email == nil && policy != PolicyName.sslServer.rawValue && policy != PolicyName.sslClient.rawValue
        return PolicyOptions(
            policy: email == nil || usesClientIdentities ? policy : nil,
            profile: !isBasic || profile == TrustProfile.rfc5280.rawValue ? profile : nil,
            hosts: host.map { [$0] } ?? [], ips: ip.map { [$0] } ?? [], emails: email.map { [$0] } ?? [])
    }

    /// The `certkit evaluate --json` command line for this scenario.
    package var commandLine: [String] {
        let base = Fixtures.scenariosDirectory.path + "/"
        let policyOptions = self.policyOptions
        var arguments = ["evaluate", "--json", "--at", verifyDate]
        if let profile = policyOptions.profile { arguments += ["--profile", profile] }
        for (option, files) in [("--anchors", anchors), ("--intermediates", intermediates), ("--crl", crls),
                                ("--always-trust", alwaysTrust), ("--distrust", distrust)] {
            for file in files { arguments += [option, base + file] }
        }
        for pin in pins { arguments += ["--pin", pin] }
        if let exceptions { arguments += ["--exceptions", base + exceptions] }
        for host in policyOptions.hosts { arguments += ["--host", host] }
        for ip in policyOptions.ips { arguments += ["--ip", ip] }
        for email in policyOptions.emails { arguments += ["--email", email] }
        if let policy = policyOptions.policy { arguments += ["--policy", policy] }
        if let maxDepth { arguments += ["--max-depth", String(maxDepth)] }
        return arguments + [base + chain]
    }

    /// Builds the evaluation the scenario describes, its policy read from ``policyOptions`` as the command line
    /// reads them.
    package func makeEvaluation() throws -> TrustEvaluation {
        let trustPolicy = try policyOptions.trustPolicy()
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
package enum Fixtures {
    package static let root = FixtureLocator.fixtures
    package static let scenariosDirectory = FixtureLocator.scenarios

    package static func data(_ relative: String) throws -> Data {
        try Data(contentsOf: scenariosDirectory.appendingPathComponent(relative))
    }

    package static func certificates(_ relative: String) throws -> [Certificate] {
        try CertificateBundle.decode([UInt8](data(relative))).certificates
    }

    package static func crls(_ relative: String) throws -> [CertificateRevocationList] {
        try CertificateRevocationList.decodeAll([UInt8](try data(relative)))
    }

    package static func date(_ text: String) throws -> Date {
        try Date(text, strategy: .iso8601)
    }

    /// Directory of additional scenario sets: `Tests/Fixtures/scenario-sets/<set>.json`, each written by its
    /// own generator (see Tests/Fixtures/README.md), same schema as scenarios.json.
    package static let scenarioSetsDirectory = root.appendingPathComponent("scenario-sets")

    /// Every scenario: scenarios.json, then each scenario set in file-name order. Names are unique across sets.
    package static let scenarios: [ConformanceScenario] = {
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
