import CertKit
import CertKitBackends
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

@Suite("evaluate: mapping and rendering")
struct EvaluateRenderingTests {
    @Test("exit codes map the result types")
    func exitCodes() {
        let expected: [TrustResultType: Int32] = [
            .unspecified: 0, .proceed: 0, .recoverableTrustFailure: 10, .fatalTrustFailure: 11, .deny: 12,
            .otherError: 13, .invalid: 13,
        ]
        for result in TrustResultType.allCases {
            #expect(ExitCode(result: result).rawValue == expected[result])
        }
    }

    static func report(
        _ result: TrustResultType, checks: [Set<TrustCheck>], error: TrustError?, backend: String = "openssl"
    ) throws -> TrustReport {
        let chain = try sampleCertificates("server-chain.pem") + sampleCertificates("root-ca.pem")
        return TrustReport(
            result: result, chain: chain, checks: checks, error: error, backend: backend,
            policy: .sslServer(host: "localhost"), verifyDate: try #require(DateText.parse("2030-06-01")), pathsTried: 2)
    }

    static let expired = TrustError(
        check: .temporalValidity, certificateIndex: 0, message: "\"localhost\" expired on 2020-01-01",
        rule: TrustRules.validity)

    @Test("--audit: a LibraryVerdict shows the library's words in the text and the JSON")
    func libraryVerdictRendering() throws {
        let error = TrustError(
            check: .libraryVerdict, certificateIndex: 0,
            message: "the backend's library refuses \"localhost\" for a reason no certkit rule explains (certkit audit mode): openssl: unsupported certificate purpose (X509_V_ERR 26)",
            rule: TrustRules.libraryVerdict)
        var report = try Self.report(.recoverableTrustFailure, checks: [[.libraryVerdict], [], []], error: error)
        report.libraryVerdict = ["[0] openssl: unsupported certificate purpose (X509_V_ERR 26) [notRequested]"]
        let text = EvaluateTextRenderer.render(report)
        #expect(text.contains("errSecVerifyActionFailed (-67825)"))
        #expect(text.contains("  [0] CN=localhost  (issuer CN=certkit Demo Intermediate CA)  — LibraryVerdict\n"))
        #expect(text.contains("  library verdict: [0] openssl: unsupported certificate purpose (X509_V_ERR 26) [notRequested]\n"))
        let json = try #require(
            JSONSerialization.jsonObject(with: Data(EvaluateJSONRenderer.render(report).utf8)) as? [String: Any])
        #expect(json["libraryVerdict"] as? [String] == report.libraryVerdict)
        let jsonError = try #require(json["error"] as? [String: Any])
        #expect(jsonError["check"] as? String == "LibraryVerdict")
        #expect(jsonError["rule"] as? String == "certkit.library-verdict")
        // Without a library verdict the key is absent.
        let plain = try Self.report(.unspecified, checks: [[], [], []], error: nil)
        #expect(!EvaluateJSONRenderer.render(plain).contains("libraryVerdict"))
    }

    @Test("text: verdict line, then one line per certificate")
    func text() throws {
        let report = try Self.report(
            .recoverableTrustFailure, checks: [[.temporalValidity, .sslHostname], [], []], error: Self.expired)
        #expect(EvaluateTextRenderer.render(report) == """
            recoverableTrustFailure: errSecCertificateExpired (-67818): "localhost" expired on 2020-01-01
              [0] CN=localhost  (issuer CN=certkit Demo Intermediate CA)  — SSLHostname, TemporalValidity
              [1] CN=certkit Demo Intermediate CA  (issuer CN=certkit Demo Root CA)  — ok
              [2] CN=certkit Demo Root CA  (issuer CN=certkit Demo Root CA)  — ok
              revocation not checked (no CRL, OCSP or --network)
              (2 candidate paths tried)

            """)
        var single = report
        single.pathsTried = 1
        #expect(!EvaluateTextRenderer.render(single).contains("candidate paths"))
        let trusted = try Self.report(.unspecified, checks: [[], [], []], error: nil)
        #expect(EvaluateTextRenderer.verdict(trusted) == "unspecified: trusted")
    }

    @Test("JSON schema: exactly the documented keys")
    func jsonSchema() throws {
        let report = try Self.report(.recoverableTrustFailure, checks: [[.temporalValidity], [], []], error: Self.expired)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(EvaluateJSONRenderer.render(report).utf8)) as? [String: Any])
        #expect(Set(json.keys) == [
            "result", "resultCode", "trusted", "error", "backend", "policy", "profile", "host", "verifyDate", "pathsTried",
            "chain", "certificateTransparency", "revocationChecked", "revocationValidUntil",
        ])
        #expect(json["profile"] as? String == "apple")
        #expect(json["result"] as? String == "recoverableTrustFailure")
        #expect(json["resultCode"] as? Int == 5)
        #expect(json["trusted"] as? Bool == false)
        #expect(json["backend"] as? String == "openssl")
        #expect(json["policy"] as? String == "ssl-server")
        #expect(json["host"] as? String == "localhost")
        #expect(json["verifyDate"] as? String == "2030-06-01T00:00:00Z")
        #expect(json["pathsTried"] as? Int == 2)
        let error = try #require(json["error"] as? [String: Any])
        #expect(Set(error.keys) == ["code", "name", "check", "certificateIndex", "message", "rule", "ruleProfiles"])
        #expect(error["rule"] as? String == "rfc5280.validity")
        #expect(error["ruleProfiles"] as? [String] == ["apple", "rfc5280", "webpki"])
        #expect(error["code"] as? Int == -67818)
        #expect(error["name"] as? String == "errSecCertificateExpired")
        #expect(error["check"] as? String == "TemporalValidity")
        let chain = try #require(json["chain"] as? [[String: Any]])
        #expect(chain.count == 3)
        for (index, entry) in chain.enumerated() {
            #expect(Set(entry.keys) == [
                "index", "subject", "issuer", "sha256", "notBefore", "notAfter", "failedChecks", "failedRules",
            ])
            #expect(entry["index"] as? Int == index)
        }
        #expect(chain[0]["failedChecks"] as? [String] == ["TemporalValidity"])
        #expect(chain[0]["subject"] as? String == "CN=localhost")

        let trusted = try Self.report(.unspecified, checks: [[], [], []], error: nil)
        let trustedJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(EvaluateJSONRenderer.render(trusted).utf8)) as? [String: Any])
        #expect(trustedJSON["error"] is NSNull && trustedJSON["trusted"] as? Bool == true)
    }

    @Test("backend comparison and the both-backends documents")
    func comparison() throws {
        let a = try Self.report(.recoverableTrustFailure, checks: [[.temporalValidity], [], []], error: Self.expired)
        var b = a
        b.backend = "gnutls"
        b.notes = ["different notes do not matter"]
        #expect(BackendComparison.agree([a, b]))
        let agreed = try #require(try JSONSerialization.jsonObject(
            with: Data(EvaluateJSONRenderer.renderAgreement([a, b]).utf8)) as? [String: Any])
        #expect(agreed["agree"] as? Bool == true && agreed["backends"] as? [String] == [a.backend, b.backend])
        #expect(agreed["result"] as? String == "recoverableTrustFailure")

        var c = b
        c.checks = [[.temporalValidity], [.temporalValidity], []]
        #expect(!BackendComparison.agree([a, c]))
        var d = b
        d.result = .fatalTrustFailure
        #expect(!BackendComparison.agree([a, d]))
        let disagreed = try #require(try JSONSerialization.jsonObject(
            with: Data(EvaluateJSONRenderer.renderDisagreement([a, d]).utf8)) as? [String: Any])
        #expect(Set(disagreed.keys) == ["agree", "reports"])
        let reports = try #require(disagreed["reports"] as? [String: [String: Any]])
        #expect(Set(reports.keys) == [a.backend, d.backend])
        #expect(reports["gnutls"]?["result"] as? String == "fatalTrustFailure")
    }
}

@Suite("evaluate: options")
struct EvaluateOptionTests {
    static let anchors = ["--anchors", FixtureLocator.sample("root-ca.pem")]
    static let chain = FixtureLocator.sample("server-chain.pem")

    @Test("usage errors exit 2 with one line", arguments: [
        ["evaluate"] + anchors,
        ["evaluate"] + anchors + [chain, chain],
        ["evaluate", "--host", "a", "--ip", "127.0.0.1"] + anchors + [chain],
        ["evaluate", "--ip", "not-an-ip"] + anchors + [chain],
        ["evaluate", "--host", "a", "--policy", "basic"] + anchors + [chain],
        ["evaluate", "--email", "a@b.example", "--policy", "ssl-server"] + anchors + [chain],
        ["evaluate", "--email", "nobody"] + anchors + [chain],
        ["evaluate", "--policy", "tls"] + anchors + [chain],
        ["evaluate", "--profile", "google"] + anchors + [chain],
        ["evaluate", "--at", "2030-99-01"] + anchors + [chain],
        ["evaluate", "--max-depth", "-1"] + anchors + [chain],
        ["evaluate", "--profile", "webpki", "--policy", "basic"] + anchors + [chain],
        ["evaluate", "--host", "a", "--host", "b"] + anchors + [chain],
        ["evaluate", "--email", "a@b.example", "--email", "c@d.example"] + anchors + [chain],
        ["evaluate", "--max-depth", "many"] + anchors + [chain],
        ["evaluate", "--pin", "sha256/short"] + anchors + [chain],
        ["evaluate", "--pin", "sha1/AAAA"] + anchors + [chain],
        ["evaluate", "--backend", "wolfssl"] + anchors + [chain],
        ["evaluate", "--json", "--json"] + anchors + [chain],
        ["evaluate", "--anchors", "-", "-"],
        ["evaluate", "--second-opinion", "maybe"] + anchors + [chain],
        ["evaluate", "--audit", "--second-opinion", "off"] + anchors + [chain],
    ])
    func usageErrors(arguments: [String]) {
        let result = certkit(arguments)
        #expect(result.code == 2, "\(arguments)")
        #expect(result.stderrLines.count == 1 && result.stderr.contains("'certkit evaluate --help'"))
        #expect(result.stdout.isEmpty)
    }

    @Test("options map onto the evaluation")
    func mapping() throws {
        let pin = try SPKIPin(certificate: sampleCertificates("server.pem")[0], backend: Digests.backend).description
        let parsed = try ArgumentParser.parse(
            ["--host", "127.0.0.1", "--profile", "rfc5280", "--at", "2030-06-01", "--max-depth", "3", "--pin", pin,
             "--intermediates", FixtureLocator.sample("intermediate-ca.pem"), "--always-trust", FixtureLocator.sample("self-signed.pem"),
             "--distrust", FixtureLocator.sample("wrong-host.pem")] + Self.anchors + [FixtureLocator.sample("server.pem")],
            options: EvaluateCommand.options, command: "evaluate")
        let options = try EvaluateOptions(parsed, registry: .standard)
        #expect(options.policy == .ssl(server: true, name: .ip([127, 0, 0, 1]), profile: .rfc5280))
        #expect(options.backend == .one("openssl"))
        let context = CommandContext(stdin: MemorySource(), stdout: MemorySink(), stderr: MemorySink(), registry: .standard)
        let evaluation = try options.makeEvaluation(context: context)
        #expect(evaluation.certificates == (try sampleCertificates("server.pem")))
        #expect(evaluation.anchors == (try sampleCertificates("root-ca.pem")))
        #expect(evaluation.anchorsOnly)
        #expect(evaluation.verifyDate == DateText.parse("2030-06-01"))
        #expect(evaluation.maxDepth == 3)
        #expect(evaluation.pins.map(\.description) == [pin])
        #expect(evaluation.additionalIntermediates == (try sampleCertificates("intermediate-ca.pem")))
        #expect(evaluation.trustSettings.alwaysTrust == (try sampleCertificates("self-signed.pem")))
        #expect(evaluation.trustSettings.distrust == (try sampleCertificates("wrong-host.pem")))

        func policy(_ arguments: [String]) throws -> TrustPolicy {
            let parsed = try ArgumentParser.parse(
                arguments + Self.anchors + [Self.chain], options: EvaluateCommand.options, command: "evaluate")
            return try EvaluateOptions(parsed, registry: .standard).policy
        }
        #expect(try policy([]) == .basicX509)
        #expect(try policy(["--host", "localhost"]) == .ssl(server: true, name: .dns("localhost"), profile: .apple))
        #expect(try policy(["--policy", "ssl-client"]) == .ssl(server: false, name: nil, profile: .apple))
        #expect(try policy(["--email", "a@b.example"]) == .email(address: "a@b.example", profile: .apple))
        #expect(try policy(["--profile", "webpki", "--host", "a.example"]) == .ssl(server: true, name: .dns("a.example"), profile: .webpki))
        #expect(try policy(["--profile", "rfc5280"]) == .basicX509)
        #expect(try policy(["--policy", "ssl-client", "--host", "a.example"]) == .ssl(server: false, name: .dns("a.example"), profile: .apple))
        #expect(try policy(["--policy", "ssl-client", "--email", "u@a.example", "--host", "a.example", "--ip", "10.0.0.1",
                            "--email", "v@a.example", "--profile", "webpki"])
            == .sslClient(identities: [.dnsName("a.example"), .ipAddress([10, 0, 0, 1]), .email("u@a.example"),
                                       .email("v@a.example")], profile: .webpki))
    }

    @Test("--audit (alias --second-opinion on): off by default; verdicts stay the same with it")
    func audit() throws {
        func configuration(_ arguments: [String]) throws -> TrustEvaluator.Configuration {
            let parsed = try ArgumentParser.parse(
                arguments + Self.anchors + [Self.chain], options: EvaluateCommand.options, command: "evaluate")
            return try EvaluateOptions(parsed, registry: .standard).evaluatorConfiguration
        }
        #expect(try !configuration([]).libraryAudit)
        #expect(try configuration(["--audit"]).libraryAudit)
        #expect(try configuration(["--second-opinion", "on"]).libraryAudit)
        #expect(try !configuration(["--second-opinion", "off"]).libraryAudit)
        #expect(try !configuration(["--audit"]).resultCacheEnabled)
        // A trusted chain, an expired one and a wrong host: the same documents with and without it, on both backends.
        for (chain, host) in [("server-chain.pem", "localhost"), ("expired.pem", "localhost"), ("wrong-host.pem", "localhost")] {
            let common = ["evaluate", "--json", "--backend", "both", "--at", "2030-06-01", "--host", host, "--intermediates",
                          FixtureLocator.sample("intermediate-ca.pem")] + Self.anchors + [FixtureLocator.sample(chain)]
            let off = certkit(common)
            let on = certkit(common.dropLast() + ["--audit", FixtureLocator.sample(chain)])
            #expect(on.code == off.code, "\(chain)")
            #expect(on.stdout == off.stdout, "\(chain)")
            #expect(!on.stdout.isEmpty)
        }
    }

    @Test("--max-depth counts intermediates: 0 accepts a leaf issued by the anchor")
    func maxDepthZero() throws {
        let parsed = try ArgumentParser.parse(
            ["--max-depth", "0"] + Self.anchors + [Self.chain], options: EvaluateCommand.options, command: "evaluate")
        #expect(try EvaluateOptions(parsed, registry: .standard).maxDepth == 0)
        #expect(EvaluateCommand.help.rendered(width: 1_000).contains("maximum intermediates"))
    }

    @Test("the text verdict says which --profile drops the failed rule")
    func profileHint() throws {
        var report = try EvaluateRenderingTests.report(.recoverableTrustFailure, checks: [[.extendedKeyUsage], [], []], error: TrustError(
            check: .extendedKeyUsage, certificateIndex: 0, message: "m", rule: TrustRules.serverAuthRequired))
        #expect(EvaluateTextRenderer.verdict(report).hasSuffix("; use --profile rfc5280 or --profile webpki to drop this rule"))
        report.error?.rule = TrustRules.rsaModulusMultipleOf8
        report.policy = .ssl(server: true, name: nil, profile: .webpki)
        #expect(EvaluateTextRenderer.verdict(report).hasSuffix("; use --profile apple or --profile rfc5280 to drop this rule"))
        report.error?.rule = TrustRules.validity
        #expect(!EvaluateTextRenderer.verdict(report).contains("--profile"))
        // A secp256k1 key fails apple.key-algorithm and certkit.key-algorithm on the same certificate: no profile
        // drops both, so no advice.
        var weak = try EvaluateRenderingTests.report(.fatalTrustFailure, checks: [[.weakKeySize], [], []], error: TrustError(
            check: .weakKeySize, certificateIndex: 0, message: "m", rule: TrustRules.appleKeyAlgorithm))
        weak.rules = [[.weakKeySize: [TrustRules.appleKeyAlgorithm, TrustRules.verifiableKeyAlgorithm]], [:], [:]]
        #expect(!EvaluateTextRenderer.verdict(weak).contains("--profile"), "\(EvaluateTextRenderer.verdict(weak))")
        weak.rules = [[.weakKeySize: [TrustRules.appleKeyAlgorithm]], [:], [:]]
        #expect(EvaluateTextRenderer.verdict(weak).hasSuffix("; use --profile rfc5280 or --profile webpki to drop this rule"))
        report.error?.rule = TrustRules.serialNumber
        report.policy = .basicX509
        #expect(!EvaluateTextRenderer.verdict(report).contains("--profile"))
    }

    @Test("--system-roots clears anchorsOnly (the core adds the system store); no --anchors needed")
    func systemRoots() throws {
        let parsed = try ArgumentParser.parse(
            ["--system-roots", Self.chain], options: EvaluateCommand.options, command: "evaluate")
        let options = try EvaluateOptions(parsed, registry: .standard)
        let context = CommandContext(stdin: MemorySource(), stdout: MemorySink(), stderr: MemorySink(), registry: .standard)
        let evaluation = try options.makeEvaluation(context: context)
        #expect(!evaluation.anchorsOnly)
        #expect(evaluation.anchors.isEmpty, "the system roots are not app-supplied anchors")
        #expect(SystemTrustStore.certificates.count > 10)
    }

    @Test("bad exceptions, CRL and anchor files are input errors (exit 1), also with --json")
    func inputErrors() throws {
        let directory = try TemporaryDirectory()
        let notJSON = try directory.write("exceptions.json", Array("{\"version\": 2}".utf8))
        let notCRL = FixtureLocator.sample("server.pem")
        for (option, path) in [("--exceptions", notJSON), ("--crl", notCRL), ("--anchors", FixtureLocator.fixture("bad-input/empty.pem")),
                               ("--intermediates", directory.file("missing.pem"))] {
            let result = certkit(["evaluate", "--json", option, path] + Self.anchors + [Self.chain])
            #expect(result.code == 1, "\(option)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("certkit: \(path): "))
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("CRLs load from PEM and DER")
    func crls() throws {
        let pemPath = FixtureLocator.scenario("revoked-leaf/int-revokes-leaf.crl.pem")
        let loader = RevocationFileLoader(reader: InputReader(stdin: MemorySource()))
        let fromPEM = try loader.load(pemPath)
        #expect(fromPEM.count == 1)
        let der = try #require(try PEM.decode(try FixtureLocator.bytes(pemPath)).first?.bytes)
        let fromDER = try RevocationFileLoader(reader: InputReader(stdin: MemorySource(der))).load("-")
        #expect(fromDER == fromPEM)
        #expect(throws: CLIError.self) { try loader.load(FixtureLocator.sample("server.pem")) }
    }
}
