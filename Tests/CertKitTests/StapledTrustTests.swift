import CertKit
import CertKitBackends
import Foundation
import Testing

/// `ServerTrust` and `ClientTrust` with a stapled OCSP response (`SecTrustSetOCSPResponse`) and
/// `requireRevocation`, on every backend, with the OCSP fixtures (Tests/Fixtures/ocsp; the leaves carry both the
/// serverAuth and clientAuth EKUs).
@Suite("ServerTrust / ClientTrust: stapled OCSP responses")
struct StapledTrustTests {
    static let backends = BackendRegistry.standard.names

    private func serverTrust(_ backend: String, requireRevocation: Bool = true) throws -> ServerTrust {
        var trust = ServerTrust(
            evaluator: TrustEvaluator(backend: BackendRegistry.standard.backend(named: backend)!),
            anchors: [try OCSPResponseTests.certificate("ca.pem")], verifyDate: try OCSPResponseTests.verifyDate())
        trust.requireRevocation = requireRevocation
        return trust
    }

    private func clientTrust(_ backend: String) throws -> ClientTrust {
        var trust = ClientTrust(
            evaluator: TrustEvaluator(backend: BackendRegistry.standard.backend(named: backend)!),
            anchors: [try OCSPResponseTests.certificate("ca.pem")], verifyDate: try OCSPResponseTests.verifyDate())
        trust.requireRevocation = true
        return trust
    }

    private func der(_ leaf: String) throws -> [[UInt8]] { [try OCSPResponseTests.certificate(leaf).derEncoded] }

    @Test("ServerTrust: a good staple is a positive answer, a revoked one fails with Revocation", arguments: backends)
    func server(backend: String) throws {
        let trust = try serverTrust(backend)
        let good = trust.evaluate(
            presentedDER: try der("leaf-good.pem"), host: "leaf.example",
            stapledOCSPResponse: try OCSPResponseTests.bytes("good.der"))
        #expect(good.isTrusted, "\(good)")
        #expect(good.revocation.first?.outcome == .good)
        #expect(good.revocation.first?.source == .stapledOCSP)

        let revoked = trust.evaluate(
            presentedDER: try der("leaf-revoked.pem"), host: "leaf.example",
            stapledOCSPResponse: try OCSPResponseTests.bytes("revoked.der"))
        #expect(revoked.result == .fatalTrustFailure, "\(revoked)")
        #expect(revoked.error?.check == .revocation)
        #expect(revoked.revocation.first?.outcome == .revoked)

        // The decoded form: the same answer.
        let decoded = trust.evaluate(
            presentedChain: [try OCSPResponseTests.certificate("leaf-revoked.pem")], host: "leaf.example",
            stapledOCSPResponse: try OCSPResponse(derEncoded: OCSPResponseTests.bytes("revoked.der")))
        #expect(decoded.error?.check == .revocation)
    }

    @Test("ServerTrust: no staple, another certificate's staple, a staple that does not decode: no answer",
          arguments: backends)
    func serverWithoutAnswer(backend: String) throws {
        let trust = try serverTrust(backend)
        let none = trust.evaluate(presentedDER: try der("leaf-good.pem"), host: "leaf.example")
        #expect(none.error?.check == .revocationResponseRequired, "\(none)")

        // The revoked leaf's answer says nothing about the good leaf.
        let other = trust.evaluate(
            presentedDER: try der("leaf-good.pem"), host: "leaf.example",
            stapledOCSPResponse: try OCSPResponseTests.bytes("revoked.der"))
        #expect(other.error?.check == .revocationResponseRequired, "\(other)")

        let garbage = trust.evaluate(
            presentedDER: try der("leaf-good.pem"), host: "leaf.example", stapledOCSPResponse: [0x30, 0x00])
        #expect(garbage.error?.check == .revocationResponseRequired, "\(garbage)")
        #expect(garbage.notes.contains { $0.hasPrefix("the stapled OCSP response is not used: ") }, "\(garbage.notes)")

        // Without requireRevocation a missing answer is no failure; a revoked one still is.
        let lenient = try serverTrust(backend, requireRevocation: false)
        #expect(lenient.evaluate(presentedDER: try der("leaf-good.pem"), host: "leaf.example").isTrusted)
        #expect(lenient.evaluate(
            presentedDER: try der("leaf-revoked.pem"), host: "leaf.example",
            stapledOCSPResponse: try OCSPResponseTests.bytes("revoked.der")).error?.check == .revocation)
    }

    @Test("ServerTrust: revocationMode crl ignores the staple", arguments: backends)
    func serverModeCRL(backend: String) throws {
        var trust = try serverTrust(backend, requireRevocation: false)
        trust.revocationMode = .crl
        let report = trust.evaluate(
            presentedDER: try der("leaf-revoked.pem"), host: "leaf.example",
            stapledOCSPResponse: try OCSPResponseTests.bytes("revoked.der"))
        #expect(report.isTrusted, "\(report)")
    }

    @Test("ClientTrust: a good staple is a positive answer, a revoked one fails with Revocation", arguments: backends)
    func client(backend: String) throws {
        let trust = try clientTrust(backend)
        let good = trust.evaluate(
            presentedDER: try der("leaf-good.pem"), stapledOCSPResponse: try OCSPResponseTests.bytes("good.der"))
        #expect(good.isTrusted, "\(good)")
        #expect(good.revocation.first?.source == .stapledOCSP)

        let revoked = trust.evaluate(
            presentedDER: try der("leaf-revoked.pem"), stapledOCSPResponse: try OCSPResponseTests.bytes("revoked.der"))
        #expect(revoked.error?.check == .revocation, "\(revoked)")

        #expect(trust.evaluate(presentedDER: try der("leaf-good.pem")).error?.check == .revocationResponseRequired)
        let garbage = trust.evaluate(presentedDER: try der("leaf-good.pem"), stapledOCSPResponse: Array("no".utf8))
        #expect(garbage.error?.check == .revocationResponseRequired)
        #expect(garbage.notes.contains { $0.hasPrefix("the stapled OCSP response is not used: ") })
    }
}
