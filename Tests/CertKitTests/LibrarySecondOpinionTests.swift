import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// The library's second opinion is a layer of its own (`TrustEvaluator.Configuration.librarySecondOpinion`): on by
/// default, where a finding no core check explains fails the path; off, the library's path verdict is not asked.
@Suite struct LibrarySecondOpinionTests {
    static let objection = LibraryFinding(index: nil, explainedBy: [], otherwise: .signature, note: "the library objects")

    static func evaluation() throws -> TrustEvaluation {
        TrustEvaluation(
            certificates: try Fixtures.certificates("valid-chain-rsa/chain.pem"), policies: [.sslServer(host: "leaf.example")],
            anchors: try Fixtures.certificates("valid-chain-rsa/root-rsa.pem"),
            verifyDate: try Fixtures.date("2030-06-01T00:00:00Z"))
    }

    @Test("on by default: an unexplained library finding fails the chain")
    func onByDefault() throws {
        #expect(TrustEvaluator.Configuration.default.librarySecondOpinion)
        let report = TrustEvaluator(backend: FixedOpinionBackend(findings: [Self.objection])).evaluate(try Self.evaluation())
        #expect(!report.isTrusted)
        #expect(report.rules.flatMap { $0.values.flatMap { $0 } }.contains(TrustRules.libraryVerdict))
    }

    @Test("off: the core's checks decide alone")
    func off() throws {
        let evaluator = TrustEvaluator(
            backend: FixedOpinionBackend(findings: [Self.objection]),
            configuration: TrustEvaluator.Configuration(librarySecondOpinion: false))
        let report = evaluator.evaluate(try Self.evaluation())
        #expect(report.result == .unspecified)
    }

    @Test("off: the core's own failures stand (a wrong host, an unknown root)")
    func offKeepsCoreFailures() throws {
        let evaluator = TrustEvaluator(
            backend: FixedOpinionBackend(findings: []), configuration: TrustEvaluator.Configuration(librarySecondOpinion: false))
        var wrongHost = try Self.evaluation()
        wrongHost.policies = [.sslServer(host: "other.example")]
        #expect(evaluator.evaluate(wrongHost).allFailures.contains(.sslHostname))
        var unknownRoot = try Self.evaluation()
        unknownRoot.anchors = try Fixtures.certificates("valid-chain-ec/root-ec.pem")
        #expect(!evaluator.evaluate(unknownRoot).isTrusted)
    }
}
