import CertKit
import CertKitBackends
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// One chain, the same verdict from the built `certkit` binary and from the library, in every mode: anchors only
/// (`--anchors` / `anchorsOnly: true`), system roots (`--system-roots` under `SSL_CERT_FILE` naming a test
/// bundle / `anchorsOnly: false` over the same bundle), a trust store whose root setting is limited to
/// `leaf.example` (`--trust-store=DIR` / `TrustStore.trustSettings()`), each with and without exceptions saved from a first run
/// (`--save-exceptions` then `--exceptions` / `TrustReport.exceptions` set on the evaluation), on every backend.
///
/// The chain (`valid-chain-rsa`: a leaf issued 2030-01-01 and valid for 516 days) tells the modes apart: under the
/// Apple profile a leaf may be valid 825 days and 3600 s under an app-supplied anchor, 398 days under a system root,
/// and any time under a root the trust settings trust. With `other.example` the host does not match either. "The same verdict" is the whole `--json` document: result, error, chain, checks.
@Suite("the same verdict from the CLI and the library")
struct SameVerdictTests {
    enum Anchors: String, CaseIterable, Sendable {
        case anchorsOnly = "anchors only"
        case systemRoots = "system roots"
        case trustStore = "trust store"
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var anchors: Anchors
        var exceptions: Bool
        var host: String
        var backend: String

        var testDescription: String {
            "\(anchors.rawValue)\(exceptions ? " + exceptions" : ""), \(host), \(backend)"
        }
    }

    static let cases: [Case] = Anchors.allCases.flatMap { anchors in
        [false, true].flatMap { exceptions in
            ["leaf.example", "other.example"].flatMap { host in
                BackendRegistry.standard.names.map { Case(anchors: anchors, exceptions: exceptions, host: host, backend: $0) }
            }
        }
    }

    static let scenario = FixtureLocator.scenario("valid-chain-rsa")
    static let chainPath = scenario + "/chain.pem"
    static let rootPath = scenario + "/root-rsa.pem"
    static let at = "2030-06-01T00:00:00Z"

    @Test("CLI and library agree", arguments: cases)
    func sameVerdict(_ testCase: Case) throws {
        let directory = try TemporaryDirectory()
        let chain = try CertificateBundle.decode(try FixtureLocator.bytes(Self.chainPath)).certificates
        let root = try CertificateBundle.decode(try FixtureLocator.bytes(Self.rootPath)).certificates
        let backend = try #require(BackendRegistry.standard.backend(named: testCase.backend))

        // The command line, and the library set up the same way.
        var arguments = ["evaluate", "--json", "--backend", testCase.backend, "--host", testCase.host, "--at", Self.at]
        var environment: [String: String] = [:]
        let evaluator: TrustEvaluator
        var evaluation = TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: testCase.host)], anchors: [],
            verifyDate: try Date(Self.at, strategy: .iso8601))
        switch testCase.anchors {
        case .anchorsOnly:
            arguments += ["--anchors", Self.rootPath]
            evaluation.anchors = root
            evaluator = TrustEvaluator(backend: backend)
        case .systemRoots:
            // A bundle of two roots: the chain's and an unrelated one.
            let bundle = try directory.write(
                "bundle.pem", try FixtureLocator.bytes(FixtureLocator.sample("root-ca.pem")) + FixtureLocator.bytes(Self.rootPath))
            environment["SSL_CERT_FILE"] = bundle
            arguments += ["--system-roots"]
            evaluation.anchorsOnly = false
            let system = SystemTrustStore.load(environment: environment)
            #expect(system.certificates.count == 2 && system.problem == nil)
            evaluator = TrustEvaluator(backend: backend) { system.certificates }
        case .trustStore:
            let store = directory.file("store")
            let added = try BinaryTests.run(["trust", "add", "--store", store, "--host", "leaf.example", Self.rootPath])
            #expect(added.code == 0, "\(added.stderr)")
            arguments += ["--trust-store=\(store)"]
            // No --anchors: the system roots are anchors too, and the store's settings apply on top.
            evaluation.anchorsOnly = false
            evaluation.trustSettings = try TrustStore(directory: store, backend: backend).trustSettings()
            #expect(evaluation.trustSettings.certificateSettings.map(\.certificate) == root)
            evaluator = TrustEvaluator(backend: backend)
        }

        var report = evaluator.evaluate(evaluation)
        if testCase.exceptions {
            let saved = directory.file("exceptions.json")
            let first = try BinaryTests.run(arguments + ["--save-exceptions", saved, Self.chainPath], environment: environment)
            try Self.expectSame(first, report, "first run")
            let written = FileManager.default.contents(atPath: saved)
            #expect(try written.map { try TrustExceptions(jsonData: $0) } == report.exceptions)
            guard let exceptions = report.exceptions else {
                #expect(report.result != .recoverableTrustFailure)
                return
            }
            #expect(written == exceptions.jsonData())
            arguments += ["--exceptions", saved]
            evaluation.exceptions = exceptions
            report = evaluator.evaluate(evaluation)
            #expect(report.result == .proceed)
        }
        let run = try BinaryTests.run(arguments + [Self.chainPath], environment: environment)
        try Self.expectSame(run, report, testCase.testDescription)

        // The modes are told apart as documented.
        switch (testCase.anchors, testCase.host, testCase.exceptions) {
        case (_, _, true): #expect(report.result == .proceed)
        case (.anchorsOnly, "leaf.example", false): #expect(report.result == .unspecified)
        case (.anchorsOnly, _, false): #expect(report.error?.check == .sslHostname)
        case (.systemRoots, _, false): #expect(report.rules.first?[.validityPeriodMaximums]?.map(\.id) == ["apple.validity-system-roots"])
        case (.trustStore, "leaf.example", false): #expect(report.result == .proceed, "a trust setting exempts the leaf")
        case (.trustStore, _, false): #expect(report.error?.check == .anchorTrusted, "the setting names leaf.example")
        }
    }

    /// The binary's exit code and JSON document are the ones the library's report gives.
    static func expectSame(_ run: BinaryTests.Outcome, _ report: TrustReport, _ what: String) throws {
        #expect(run.code == ExitCode(result: report.result).rawValue, "\(what): \(run.stderr)")
        // The command adds where its anchors came from, which the library's report does not carry.
        #expect(withoutAnchorSources(String(decoding: run.stdout, as: UTF8.self)) == EvaluateJSONRenderer.render(report), "\(what)")
    }
}
