import CertKit
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// OCSP responses given with `--ocsp-response`, `--revocation` and `--require-revocation`, on both backends
/// (`--backend both`: the command fails with exit 3 when they disagree). Fixtures: the ocsp fixture set.
@Suite("evaluate: OCSP responses and revocation modes")
struct OCSPTests {
    static let directory = FixtureLocator.fixture("ocsp")
    static func file(_ name: String) -> String { "\(directory)/\(name)" }
    static func date(_ name: String) throws -> String {
        try String(contentsOfFile: file(name), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What one evaluation of a fixture leaf reported, from its JSON on both backends.
    struct Outcome {
        var code: Int32
        var result: String
        var leafChecks: [String]
        var leafRules: [String]
        var revocation: [String: Any]
    }

    static func evaluate(_ leaf: String, _ options: [String], at: String = "verify-date.txt") throws -> Outcome {
        let run = certkit(
            ["evaluate", "--anchors", file("ca.pem"), "--at", try date(at), "--backend", "both", "--json"] + options
                + [file(leaf)])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any], "\(run.stderr)")
        #expect(object["agree"] as? Bool == true, "the backends disagree: \(run.stdoutText)")
        let chain = try #require(object["chain"] as? [[String: Any]])
        return Outcome(
            code: run.code, result: object["result"] as? String ?? "",
            leafChecks: chain[0]["failedChecks"] as? [String] ?? [], leafRules: chain[0]["failedRules"] as? [String] ?? [],
            revocation: chain[0]["revocation"] as? [String: Any] ?? [:])
    }

    @Test("a good response signed by the issuer: checked, from its file (not stapled), valid until its nextUpdate",
          arguments: ["good.der", "good-sha256.der", "delegated.der"])
    func good(_ response: String) throws {
        let outcome = try Self.evaluate("leaf-good.pem", ["--ocsp-response", Self.file(response)])
        #expect(outcome.code == 0)
        #expect(outcome.result == "unspecified")
        #expect(outcome.revocation["checked"] as? Bool == true)
        #expect(outcome.revocation["outcome"] as? String == "good")
        #expect(outcome.revocation["source"] as? String == "ocspFile", "a response read from a file is not stapled")
        let until = try #require(outcome.revocation["validUntil"] as? String)
        #expect(until > (try Self.date("verify-date.txt")))
    }

    @Test("revoked, by the issuer or a delegated responder: fatal Revocation",
          arguments: ["revoked.der", "delegated-revoked.der"])
    func revoked(_ response: String) throws {
        let outcome = try Self.evaluate("leaf-revoked.pem", ["--ocsp-response", Self.file(response)])
        #expect(outcome.code == 11)
        #expect(outcome.leafChecks == ["Revocation"])
        #expect(outcome.leafRules == ["certkit.revocation"])
        #expect(outcome.revocation["outcome"] as? String == "revoked")
    }

    @Test("unknown is no answer: trusted, not checked; a failure only with --require-revocation")
    func unknown() throws {
        let plain = try Self.evaluate("leaf-unknown.pem", ["--ocsp-response", Self.file("unknown.der")])
        #expect(plain.code == 0)
        #expect(plain.revocation["checked"] as? Bool == false)
        #expect(plain.revocation["outcome"] as? String == "notChecked")
        let required = try Self.evaluate(
            "leaf-unknown.pem", ["--ocsp-response", Self.file("unknown.der"), "--require-revocation"])
        #expect(required.code == 10)
        #expect(required.leafChecks == ["RevocationResponseRequired"])
        #expect(required.leafRules == ["certkit.revocation-required"])
    }

    @Test("attacks: a response that does not validate is RevocationResponseRequired, never good",
          arguments: [
              ("wrong-key.der", "verify-date.txt"),  // signed by a rogue key under the CA's name
              ("delegated-no-eku.der", "verify-date.txt"),  // a responder certificate without OCSPSigning
              ("delegated-ca.der", "verify-date.txt"),  // a responder certificate with OCSPSigning that is a CA
              ("delegated-critical.der", "verify-date.txt"),  // a responder certificate with an unknown critical extension
              ("stale.der", "verify-date.txt"),  // nextUpdate has passed
              ("good.der", "late-date.txt"),  // expired: evaluated after its nextUpdate
          ])
    func invalid(_ response: String, _ at: String) throws {
        let outcome = try Self.evaluate("leaf-good.pem", ["--ocsp-response", Self.file(response)], at: at)
        #expect(outcome.code == 10)
        #expect(outcome.leafChecks == ["RevocationResponseRequired"])
        #expect(outcome.leafRules == ["certkit.ocsp-validation"])
        #expect(outcome.revocation["checked"] as? Bool == false)
    }

    @Test("a response whose certID names another certificate is no answer for this one")
    func otherCertificate() throws {
        let plain = try Self.evaluate("leaf-revoked.pem", ["--ocsp-response", Self.file("good.der")])
        #expect(plain.code == 0)
        #expect(plain.revocation["outcome"] as? String == "notChecked")
        let required = try Self.evaluate(
            "leaf-revoked.pem", ["--ocsp-response", Self.file("good.der"), "--require-revocation"])
        #expect(required.code == 10)
        #expect(required.leafRules == ["certkit.revocation-required"])
    }

    @Test("--revocation chooses the sources: a CRL listing the leaf counts under crl and any, not under ocsp or off")
    func modes() throws {
        for (mode, code) in [("crl", Int32(11)), ("any", 11), ("ocsp", 0), ("off", 0)] {
            let outcome = try Self.evaluate(
                "leaf-revoked.pem", ["--crl", Self.file("crl.pem"), "--revocation", mode])
            #expect(outcome.code == code, "--revocation \(mode)")
            if mode == "off" { #expect(outcome.revocation.isEmpty) }
            if mode == "ocsp" { #expect(outcome.revocation["outcome"] as? String == "notChecked") }
        }
        let ocspOnly = try Self.evaluate(
            "leaf-revoked.pem", ["--ocsp-response", Self.file("revoked.der"), "--revocation", "crl"])
        #expect(ocspOnly.code == 0)
        let crlGood = try Self.evaluate("leaf-good.pem", ["--crl", Self.file("crl.pem"), "--require-revocation"])
        #expect(crlGood.code == 0)
        #expect(crlGood.revocation["source"] as? String == "crlFile")
    }

    @Test("text output: one revocation line per certificate")
    func text() throws {
        let run = certkit([
            "evaluate", "--anchors", Self.file("ca.pem"), "--at", try Self.date("verify-date.txt"),
            "--ocsp-response", Self.file("good.der"), Self.file("leaf-good.pem"),
        ])
        #expect(run.code == 0)
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[2].hasPrefix("      revocation: good (OCSP response file) until "), "read from a file, not stapled")
        #expect(lines[4] == "      revocation: not applicable")
        #expect(lines[5] == "  anchors: \(Self.file("ca.pem")) (1 certificate)")
        #expect(!run.stdoutText.contains("revocation not checked"))
    }

    @Test("bad input: a file that is not an OCSP response, and --require-revocation with --revocation off")
    func badInput() throws {
        let directory = try TemporaryDirectory()
        let garbage = try directory.write("garbage.der", Array("not DER".utf8))
        let run = certkit(["evaluate", "--anchors", Self.file("ca.pem"), "--ocsp-response", garbage, Self.file("leaf-good.pem")])
        #expect(run.code == 1)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("garbage.der") && run.stderr.contains("not an OCSP response"))
        let usage = certkit([
            "evaluate", "--anchors", Self.file("ca.pem"), "--revocation", "off", "--require-revocation",
            Self.file("leaf-good.pem"),
        ])
        #expect(usage.code == 2)
        let mode = certkit(["evaluate", "--anchors", Self.file("ca.pem"), "--revocation", "sometimes", Self.file("leaf-good.pem")])
        #expect(mode.code == 2)
    }
}
