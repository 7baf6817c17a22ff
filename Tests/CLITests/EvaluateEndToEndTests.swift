import CertKit
import CertKitBackends
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// Real evaluations through the CLI, on the Samples and on the conformance scenarios.
@Suite("evaluate: end to end")
struct EvaluateEndToEndTests {
    static let anchors = ["--anchors", FixtureLocator.sample("root-ca.pem")]
    static let at = ["--at", "2030-06-01"]

    @Test("the Samples chain is trusted on each backend and on both",
          arguments: BackendRegistry.standard.names + [BackendRegistry.allBackendsChoice])
    func samplesChain(backend: String) {
        let result = certkit(["evaluate", "--backend", backend, "--host", "localhost"] + Self.anchors + Self.at
            + [FixtureLocator.sample("server-chain.pem")])
        #expect(result.code == 0, "\(result.stdoutText)\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "unspecified: trusted")
        #expect(lines.dropFirst().first == "  [0] CN=localhost  (issuer CN=certkit Demo Intermediate CA)  — ok")
        if backend == BackendRegistry.allBackendsChoice {
            #expect(lines.last == "both backends agree (\(BackendRegistry.standard.names.joined(separator: ", ")))")
        }
    }

    @Test("a wrong host is recoverable (exit 10); exceptions saved from it make a later run proceed")
    func exceptionsRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let saved = directory.file("exceptions.json")
        let base = ["evaluate", "--host", "localhost", "--intermediates", FixtureLocator.sample("intermediate-ca.pem")]
            + Self.anchors + Self.at
        let first = certkit(base + ["--json", "--save-exceptions", saved, FixtureLocator.sample("wrong-host.pem")])
        #expect(first.code == 10, "\(first.stdoutText)\(first.stderr)")
        let json = try #require(try? JSONSerialization.jsonObject(with: Data(first.stdout)) as? [String: Any])
        #expect((json["error"] as? [String: Any])?["name"] as? String == "errSecHostNameMismatch")
        #expect(try directory.contents() == ["exceptions.json"])
        let exceptions = try TrustExceptions(jsonData: Data(try FixtureLocator.bytes(saved)))
        #expect(exceptions.checks == [.sslHostname])

        let second = certkit(base + ["--exceptions", saved, FixtureLocator.sample("wrong-host.pem")])
        #expect(second.code == 0)
        #expect(second.stdoutText.hasPrefix("proceed: trusted\n"))

        let nothing = directory.file("nothing.json")
        let trusted = certkit(base + ["--save-exceptions", nothing, FixtureLocator.sample("server.pem")])
        #expect(trusted.code == 0)
        #expect(trusted.stderr.hasPrefix("certkit: \(nothing): nothing saved"))
        #expect(!FileManager.default.fileExists(atPath: nothing))
    }

    @Test("an expired leaf is recoverable with TemporalValidity on certificate 0")
    func expired() {
        let result = certkit(["evaluate", "--host", "localhost", "--intermediates", FixtureLocator.sample("intermediate-ca.pem")]
            + Self.anchors + Self.at + [FixtureLocator.sample("expired.pem")])
        #expect(result.code == 10)
        #expect(result.stdoutText.hasPrefix("recoverableTrustFailure: errSecCertificateExpired (-67818): "))
        #expect(result.stdoutText.contains("  [0] CN=localhost  (issuer CN=certkit Demo Intermediate CA)  — TemporalValidity\n"))
    }

    @Test("--always-trust alone is enough, and reads proceed")
    func alwaysTrust() {
        let result = certkit(["evaluate", "--always-trust", FixtureLocator.sample("root-ca.pem"), "--host", "localhost"]
            + Self.at + [FixtureLocator.sample("server-chain.pem")])
        #expect(result.code == 0)
        #expect(result.stdoutText.hasPrefix("proceed: trusted\n"))
    }

    @Test("the chain can come from standard input")
    func standardInput() throws {
        let result = certkit(["evaluate", "--host", "localhost"] + Self.anchors + Self.at + ["-"],
                             stdin: try FixtureLocator.bytes(FixtureLocator.sample("server-chain.pem")))
        #expect(result.code == 0)
    }

    static let scenarios = Fixtures.scenarios

    @Test("the scenario list loads")
    func scenariosLoad() {
        #expect(Self.scenarios.count > 50)
    }

    /// Every conformance scenario through the command line (default backend): the CLI's JSON must be exactly the
    /// rendering of the report the library gives for the same scenario built directly (so every option maps onto
    /// the evaluation), and the result and exit code must be the ones the scenario expects. (Whether the error and
    /// the failed checks match the scenario is the conformance suite's business, not the CLI's.)
    @Test("conformance scenarios through the CLI", arguments: scenarios)
    func scenario(_ scenario: ConformanceScenario) throws {
        let result = certkit(scenario.commandLine)
        // The CLI's default backend is OpenSSL: a documented OpenSSL difference applies.
        let expectation = scenario.expectation(for: "openssl")
        let expected = try #require(TrustResultType(name: expectation.result))
        #expect(result.code == ExitCode(result: expected).rawValue, "\(result.stdoutText)\(result.stderr)")
        let json = try #require(try? JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        #expect(json["result"] as? String == expectation.result)

        let report = TrustEvaluator(backend: try #require(BackendRegistry.standard.backend(named: "openssl")))
            .evaluate(try scenario.makeEvaluation())
        // The command adds where its anchors came from, which the library's report does not carry.
        #expect(withoutAnchorSources(result.stdoutText) == EvaluateJSONRenderer.render(report))
    }
}

extension ConformanceScenario: CustomTestStringConvertible {
    public var testDescription: String { name }
}
