import CertKit
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// The freshness and signer rules of OCSP answers, on both backends (`--backend both`): an answer
/// without nextUpdate holds for a day after its thisUpdate and no longer, an answer is not used before its
/// thisUpdate, and a delegated responder certificate must be signed by the issuer. Responses are made at test time
/// by `openssl ocsp` (NetworkTestPKI) or taken from Tests/Fixtures/ocsp.
@Suite("evaluate: OCSP answers' lifetime and delegated responders")
struct OCSPFreshnessTests {
    /// What `certkit evaluate --backend both --json` reported for `leaf` with the OCSP response `response` at `date`.
    static func evaluate(
        leaf: String, anchors: String, intermediates: String? = nil, response: String, at date: Date
    ) throws -> OCSPTests.Outcome {
        let run = certkit(
            ["evaluate", "--anchors", anchors] + (intermediates.map { ["--intermediates", $0] } ?? [])
                + ["--at", ISO8601DateFormatter().string(from: date), "--backend", "both", "--json",
                   "--ocsp-response", response, leaf])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any], "\(run.stderr)")
        #expect(object["agree"] as? Bool == true, "the backends disagree: \(run.stdoutText)")
        let chain = try #require(object["chain"] as? [[String: Any]])
        return OCSPTests.Outcome(
            code: run.code, result: object["result"] as? String ?? "",
            leafChecks: chain[0]["failedChecks"] as? [String] ?? [], leafRules: chain[0]["failedRules"] as? [String] ?? [],
            revocation: chain[0]["revocation"] as? [String: Any] ?? [:])
    }

    static func expectGood(_ outcome: OCSPTests.Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.code == 0, "\(outcome.leafChecks)", sourceLocation: sourceLocation)
        #expect(outcome.revocation["outcome"] as? String == "good", sourceLocation: sourceLocation)
    }

    static func expectNoAnswer(_ outcome: OCSPTests.Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.code == 10, sourceLocation: sourceLocation)
        #expect(outcome.leafChecks == ["RevocationResponseRequired"], sourceLocation: sourceLocation)
        #expect(outcome.leafRules == ["certkit.ocsp-validation"], sourceLocation: sourceLocation)
        #expect(outcome.revocation["outcome"] as? String != "good", sourceLocation: sourceLocation)
    }

    static func pki() throws -> NetworkTestPKI {
        // No network: the URLs are never fetched.
        let pki = try NetworkTestPKI(leafIssuerURL: "http://127.0.0.1:9/int.der")
        try pki.writeIntermediateDatabase(leafRevoked: false)
        return pki
    }

    static func thisUpdate(_ path: String) throws -> Date {
        try #require(try OCSPResponse(derEncoded: FixtureLocator.bytes(path)).basic?.responses.first?.thisUpdate)
    }

    @Test("an answer without nextUpdate holds for a day after its thisUpdate: good a minute before, no answer a minute after")
    func withoutNextUpdate() throws {
        let pki = try Self.pki()
        let response = pki.directory.file("no-next-update.der")
        try pki.writeOCSPResponse("no-next-update.der", days: nil)
        let single = try #require(try OCSPResponse(derEncoded: FixtureLocator.bytes(response)).basic?.responses.first)
        #expect(single.nextUpdate == nil, "the fixture has no nextUpdate")
        let end = single.thisUpdate.addingTimeInterval(24 * 3600)
        for (offset, good) in [(-60.0, true), (60, false), (30 * 24 * 3600, false)] {
            let outcome = try Self.evaluate(
                leaf: pki.leaf, anchors: pki.root, intermediates: pki.intermediate, response: response,
                at: end.addingTimeInterval(offset))
            if good { Self.expectGood(outcome) } else { Self.expectNoAnswer(outcome) }
        }
    }

    @Test("an answer is used from five minutes before its thisUpdate (clock skew): no answer a second earlier")
    func beforeThisUpdate() throws {
        let directory = FixtureLocator.fixture("ocsp")
        let response = "\(directory)/good.der"
        let thisUpdate = try Self.thisUpdate(response)
        let leaf = "\(directory)/leaf-good.pem"
        let notBefore = try CertificateBundle.decode(FixtureLocator.bytes(leaf)).certificates[0].notBefore
        try #require(notBefore < thisUpdate.addingTimeInterval(-301), "the fixture's leaf must be valid before the answer")
        for (offset, good) in [(-301.0, false), (-300, true), (0, true)] {
            let outcome = try Self.evaluate(
                leaf: leaf, anchors: "\(directory)/ca.pem", response: response, at: thisUpdate.addingTimeInterval(offset))
            if good { Self.expectGood(outcome) } else { Self.expectNoAnswer(outcome) }
        }
    }

    @Test("a delegated responder certificate not signed by the issuer (a rogue CA copying its name) is no answer; one the issuer signed is")
    func forgedResponder() throws {
        let pki = try Self.pki()
        try pki.writeResponder("responder", forged: false)
        try pki.writeResponder("forged-responder", forged: true)
        try pki.writeOCSPResponse("delegated.der", signer: "responder")
        try pki.writeOCSPResponse("forged.der", signer: "forged-responder")
        let date = try Self.thisUpdate(pki.directory.file("delegated.der")).addingTimeInterval(60)
        Self.expectGood(try Self.evaluate(
            leaf: pki.leaf, anchors: pki.root, intermediates: pki.intermediate, response: pki.directory.file("delegated.der"),
            at: date))
        Self.expectNoAnswer(try Self.evaluate(
            leaf: pki.leaf, anchors: pki.root, intermediates: pki.intermediate, response: pki.directory.file("forged.der"),
            at: date))
    }
}
