import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// The audit mode (`TrustEvaluator.Configuration.libraryAudit`): off by default, where the core decides alone; on,
/// the library's own verifier judges the path the core chose, and a refusal no core rule explains is a failure of
/// its own check, `LibraryVerdict`, with the library's words — never relabelled as a core check.
@Suite struct LibraryAuditTests {
    static let objection = LibraryFact(.notRequested, words: "unsupported certificate purpose (X509_V_ERR 26)")

    static func evaluation() throws -> TrustEvaluation {
        TrustEvaluation(
            certificates: try Fixtures.certificates("valid-chain-rsa/chain.pem"), policies: [.sslServer(host: "leaf.example")],
            anchors: try Fixtures.certificates("valid-chain-rsa/root-rsa.pem"),
            verifyDate: try Fixtures.date("2030-06-01T00:00:00Z"))
    }

    @Test("off by default: the library's verdict is not asked, the core decides alone")
    func offByDefault() throws {
        #expect(!TrustEvaluator.Configuration.default.libraryAudit)
        #expect(!TrustEvaluator.Configuration().libraryAudit)
        let report = TrustEvaluator(backend: ForwardingBackend.fixedOpinion([Self.objection])).evaluate(try Self.evaluation())
        #expect(report.result == .unspecified)
        #expect(report.libraryVerdict.isEmpty)
    }

    @Test("audit: a refusal no core rule explains is LibraryVerdict with the library's words")
    func unexplainedRefusal() throws {
        let report = TrustEvaluator(backend: ForwardingBackend.fixedOpinion([Self.objection]), configuration: .audit)
            .evaluate(try Self.evaluation())
        #expect(report.result == .recoverableTrustFailure)
        #expect(report.checks == [[.libraryVerdict], [], []])
        #expect(report.rules[0][.libraryVerdict] == [TrustRules.libraryVerdict])
        let error = try #require(report.error)
        #expect(error.check == .libraryVerdict && error.code == .errSecVerifyActionFailed)
        #expect(error.rule?.id == "certkit.library-verdict")
        #expect(error.message.contains("fixed-opinion: unsupported certificate purpose (X509_V_ERR 26)"), "\(error.message)")
        #expect(report.libraryVerdict == ["[0] fixed-opinion: unsupported certificate purpose (X509_V_ERR 26) [notRequested]"])
        // Not a core check: nothing says a signature is bad or an issuer missing; no exception covers it.
        #expect(!report.allFailures.contains(.signature) && !report.allFailures.contains(.missingIntermediate))
        #expect(!TrustCheck.libraryVerdict.isExceptionAllowed)
        #expect(TrustCheck.libraryVerdict.severity == .recoverable)
    }

    @Test("audit: a refusal the core explains adds nothing")
    func explainedRefusal() throws {
        var wrongHost = try Self.evaluation()
        wrongHost.policies = [.sslServer(host: "other.example")]
        let evaluator = TrustEvaluator(
            backend: ForwardingBackend.fixedOpinion([LibraryFact(.expired, index: 0, words: "certificate has expired")]),
            configuration: .audit)
        var expired = try Self.evaluation()
        expired.verifyDate = try Fixtures.date("2099-06-01T00:00:00Z")
        let report = evaluator.evaluate(expired)
        #expect(report.allFailures.contains(.temporalValidity))
        #expect(!report.allFailures.contains(.libraryVerdict))
        #expect(evaluator.evaluate(wrongHost).allFailures.contains(.libraryVerdict))
    }

    @Test("audit: a status the backend has no name for fails closed as LibraryVerdict")
    func unknownStatusFailsClosed() throws {
        let report = TrustEvaluator(
            backend: ForwardingBackend.fixedOpinion([LibraryFact(.unknown, words: "status bits 0x40000000")]),
            configuration: .audit
        ).evaluate(try Self.evaluation())
        #expect(!report.isTrusted)
        #expect(report.checks == [[.libraryVerdict], [], []])
    }

    @Test("the core's own failures stand without the audit (a wrong host, an unknown root)")
    func defaultKeepsCoreFailures() throws {
        let evaluator = TrustEvaluator(backend: ForwardingBackend.fixedOpinion([]))
        var wrongHost = try Self.evaluation()
        wrongHost.policies = [.sslServer(host: "other.example")]
        #expect(evaluator.evaluate(wrongHost).allFailures.contains(.sslHostname))
        var unknownRoot = try Self.evaluation()
        unknownRoot.anchors = try Fixtures.certificates("valid-chain-ec/root-ec.pem")
        #expect(!evaluator.evaluate(unknownRoot).isTrusted)
    }

    @Test("audit: a library reading another signature digest than the allowlist is LibraryVerdict on that certificate — the leaf, an intermediate; the anchor's own signature is never read",
          arguments: [0, 1, 2])
    func digestReadingPerCertificate(index: Int) throws {
        let evaluation = try Self.evaluation()
        let path = evaluation.certificates + evaluation.anchors
        let subject = path[index].derEncoded
        for real in BackendRegistry.standard.allBackends() {
            let backend = ForwardingBackend(real, overrides: .init(librarySignatureDigest: { certificate, real in
                certificate.derEncoded == subject ? .digest(.sha512) : real.librarySignatureDigest(of: certificate)
            }))
            let report = TrustEvaluator(backend: backend, configuration: .audit).evaluate(evaluation)
            if index == 2 {
                // The anchor is taken as given: its self-signature is not read, in the core or the audit.
                #expect(report.result == .unspecified, "\(real.name): \(report.checks)")
            } else {
                #expect(report.result == .recoverableTrustFailure, "\(real.name) [\(index)]")
                #expect(report.checks.indices.filter { report.checks[$0].contains(.libraryVerdict) } == [index],
                        "\(real.name): \(report.checks)")
                #expect(report.libraryVerdict.contains { $0.hasPrefix("[\(index)]") && $0.contains("sha512") },
                        "\(real.name): \(report.libraryVerdict)")
            }
            // The default (no audit) never asks.
            #expect(TrustEvaluator(backend: backend).evaluate(evaluation).result == .unspecified, "\(real.name)")
        }
    }
}
