import CertKit
@testable import CertKitCLI
import Foundation
import Testing

/// Real evaluations through the CLI, on the Samples and on the conformance scenarios.
@Suite("evaluate: end to end")
struct EvaluateEndToEndTests {
    static let anchors = ["--anchors", Paths.sample("root-ca.pem")]
    static let at = ["--at", "2030-06-01"]

    @Test("the Samples chain is trusted on each backend and on both", arguments: ["openssl", "gnutls", "both"])
    func samplesChain(backend: String) {
        let result = certkit(["evaluate", "--backend", backend, "--host", "localhost"] + Self.anchors + Self.at
            + [Paths.sample("server-chain.pem")])
        #expect(result.code == 0, "\(result.stdoutText)\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "unspecified: trusted")
        #expect(lines.dropFirst().first == "  [0] CN=localhost  (issuer CN=certkit Demo Intermediate CA)  — ok")
        if backend == "both" { #expect(lines.last == "both backends agree (openssl, gnutls)") }
    }

    @Test("a wrong host is recoverable (exit 10); exceptions saved from it make a later run proceed")
    func exceptionsRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let saved = directory.file("exceptions.json")
        let base = ["evaluate", "--host", "localhost", "--intermediates", Paths.sample("intermediate-ca.pem")]
            + Self.anchors + Self.at
        let first = certkit(base + ["--json", "--save-exceptions", saved, Paths.sample("wrong-host.pem")])
        #expect(first.code == 10, "\(first.stdoutText)\(first.stderr)")
        let json = try #require(try? JSONSerialization.jsonObject(with: Data(first.stdout)) as? [String: Any])
        #expect((json["error"] as? [String: Any])?["name"] as? String == "errSecHostNameMismatch")
        #expect(try directory.contents() == ["exceptions.json"])
        let exceptions = try TrustExceptions(jsonData: Data(try Paths.bytes(saved)))
        #expect(exceptions.checks == [.sslHostname])

        let second = certkit(base + ["--exceptions", saved, Paths.sample("wrong-host.pem")])
        #expect(second.code == 0)
        #expect(second.stdoutText.hasPrefix("proceed: trusted\n"))

        let nothing = directory.file("nothing.json")
        let trusted = certkit(base + ["--save-exceptions", nothing, Paths.sample("server.pem")])
        #expect(trusted.code == 0)
        #expect(trusted.stderr.hasPrefix("certkit: \(nothing): nothing saved"))
        #expect(!FileManager.default.fileExists(atPath: nothing))
    }

    @Test("an expired leaf is recoverable with TemporalValidity on certificate 0")
    func expired() {
        let result = certkit(["evaluate", "--host", "localhost", "--intermediates", Paths.sample("intermediate-ca.pem")]
            + Self.anchors + Self.at + [Paths.sample("expired.pem")])
        #expect(result.code == 10)
        #expect(result.stdoutText.hasPrefix("recoverableTrustFailure: errSecCertificateExpired (-67818): "))
        #expect(result.stdoutText.contains("  [0] CN=localhost  (issuer CN=certkit Demo Intermediate CA)  — TemporalValidity\n"))
    }

    @Test("--always-trust alone is enough, and reads proceed")
    func alwaysTrust() {
        let result = certkit(["evaluate", "--always-trust", Paths.sample("root-ca.pem"), "--host", "localhost"]
            + Self.at + [Paths.sample("server-chain.pem")])
        #expect(result.code == 0)
        #expect(result.stdoutText.hasPrefix("proceed: trusted\n"))
    }

    @Test("the chain can come from standard input")
    func standardInput() throws {
        let result = certkit(["evaluate", "--host", "localhost"] + Self.anchors + Self.at + ["-"],
                             stdin: try Paths.bytes(Paths.sample("server-chain.pem")))
        #expect(result.code == 0)
    }

    struct Scenario: Decodable, CustomTestStringConvertible {
        struct Expected: Decodable {
            var result: String
            var error: String?
            var checks: [String: [String]]
            var chainSubjects: [String]?
        }

        var name: String
        var chain: String
        var anchors: [String]
        var intermediates: [String]
        var crls: [String]
        var alwaysTrust: [String]
        var distrust: [String]
        var pins: [String]
        var exceptions: String?
        var policy: String
        var host: String?
        var ip: String?
        var email: String?
        var profile: String
        var maxDepth: Int?
        var verifyDate: String
        var expected: Expected

        var testDescription: String { name }

        /// The `certkit evaluate` command line for this scenario.
        var arguments: [String] {
            let base = Paths.root.appendingPathComponent("Tests/Fixtures/scenarios").path + "/"
            var arguments = ["evaluate", "--json", "--at", verifyDate, "--profile", profile]
            for (option, files) in [("--anchors", anchors), ("--intermediates", intermediates), ("--crl", crls),
                                    ("--always-trust", alwaysTrust), ("--distrust", distrust)] {
                for file in files { arguments += [option, base + file] }
            }
            for pin in pins { arguments += ["--pin", pin] }
            if let exceptions { arguments += ["--exceptions", base + exceptions] }
            if let host { arguments += ["--host", host] }
            if let ip { arguments += ["--ip", ip] }
            if let email { arguments += ["--email", email] } else { arguments += ["--policy", policy] }
            if let maxDepth { arguments += ["--max-depth", String(maxDepth)] }
            return arguments + [base + chain]
        }
    }

    static let scenarios: [Scenario] = {
        let url = Paths.root.appendingPathComponent("Tests/Fixtures/scenarios.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([Scenario].self, from: data)) ?? []
    }()

    @Test("the scenario list loads")
    func scenariosLoad() throws {
        let url = Paths.root.appendingPathComponent("Tests/Fixtures/scenarios.json")
        let decoded = try JSONDecoder().decode([Scenario].self, from: try Data(contentsOf: url))
        #expect(decoded.count > 50)
        #expect(Self.scenarios.count == decoded.count)
    }

    /// Every conformance scenario through the command line (default backend): the CLI's JSON must be exactly the
    /// rendering of the report the library gives for the same scenario built directly (so every option maps onto
    /// the evaluation), and the result and exit code must be the ones the scenario expects. (Whether the error and
    /// the failed checks match the scenario is the conformance suite's business, not the CLI's.)
    @Test("conformance scenarios through the CLI", arguments: scenarios)
    func scenario(_ scenario: Scenario) throws {
        let result = certkit(scenario.arguments)
        let expected = try #require(TrustResultType(name: scenario.expected.result))
        #expect(result.code == ExitCode(result: expected).rawValue, "\(result.stdoutText)\(result.stderr)")
        let json = try #require(try? JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        #expect(json["result"] as? String == scenario.expected.result)

        let report = TrustEvaluator(backend: try #require(BackendRegistry.standard.backend(named: "openssl")))
            .evaluate(try scenario.evaluation())
        #expect(result.stdoutText == EvaluateJSONRenderer.render(report))
    }
}

extension EvaluateEndToEndTests.Scenario {
    /// The scenario as a `TrustEvaluation`, built with the library alone.
    func evaluation() throws -> TrustEvaluation {
        let base = Paths.root.appendingPathComponent("Tests/Fixtures/scenarios").path + "/"
        func certificates(_ files: [String]) throws -> [Certificate] {
            try files.flatMap { try CertificateBundle.decode(try Paths.bytes(base + $0)).certificates }
        }
        let profile = try #require(TrustProfile(rawValue: profile))
        let peer = (ip ?? host).map(PeerName.parse)
        let policy: TrustPolicy
        if let email {
            policy = .email(address: email, profile: profile)
        } else if self.policy == "basic" {
            policy = .basicX509
        } else {
            policy = .ssl(server: self.policy == "ssl-server", name: peer, profile: profile)
        }
        let revocationLists = try crls.flatMap { file in
            try PEM.decode(try Paths.bytes(base + file)).filter { $0.label == "X509 CRL" }
                .map { try CertificateRevocationList(derEncoded: $0.bytes) }
        }
        let date: Date = try #require(DateText.parse(verifyDate))
        return TrustEvaluation(
            certificates: try certificates([chain]), policies: [policy], anchors: try certificates(anchors),
            anchorsOnly: true, verifyDate: date,
            trustSettings: TrustSettings(alwaysTrust: try certificates(alwaysTrust), distrust: try certificates(distrust)),
            exceptions: try exceptions.map { try TrustExceptions(jsonData: Data(try Paths.bytes(base + $0))) },
            crls: revocationLists, pins: pins.compactMap(SPKIPin.init),
            additionalIntermediates: try certificates(intermediates),
            maxDepth: maxDepth ?? TrustEvaluation.defaultMaxDepth)
    }
}
