import CertKit
import CertKitBackends
import Foundation
import Testing

/// ClientTrust: the server-side decision on a presented client chain, on every backend.
@Suite("ClientTrust")
struct ClientTrustTests {
    static let backends = BackendRegistry.standard.names
    static let at = ISO8601DateFormatter().date(from: "2030-06-01T00:00:00Z")!

    private func trust(_ backend: String, expected: [GeneralName] = []) throws -> ClientTrust {
        ClientTrust(
            evaluator: TrustEvaluator(backend: BackendRegistry.standard.backend(named: backend)!),
            anchors: try IdentityFixtures.certificates("client-root-ca.pem"), expectedIdentities: expected,
            verifyDate: Self.at)
    }

    private func chain(_ leaf: String) throws -> [Certificate] {
        try IdentityFixtures.certificates(leaf) + IdentityFixtures.certificates("client-intermediate-ca.pem")
    }

    private func failed(_ report: TrustReport) -> Set<String> {
        Set(report.checks.flatMap { $0.map(\.rawValue) })
    }

    @Test("a good client chain is trusted; with its email or DNS name expected too", arguments: backends)
    func trusted(backend: String) throws {
        let report = try trust(backend).evaluate(presentedChain: chain("client.pem"))
        #expect(report.isTrusted, "\(report)")
        #expect(try trust(backend, expected: [.email("alice@example.com")]).evaluate(presentedChain: chain("client.pem")).isTrusted)
        #expect(try trust(backend, expected: [.dnsName("nobody.example"), .dnsName("alice.example")])
            .evaluate(presentedChain: chain("client.pem")).isTrusted)
        let der = try chain("client.pem").map(\.derEncoded)
        #expect(try trust(backend).evaluate(presentedDER: der).isTrusted)
    }

    @Test("expired, wrong EKU, other CA, other name, nothing presented: refused with the right checks", arguments: backends)
    func refused(backend: String) throws {
        let expired = try trust(backend).evaluate(presentedChain: chain("client-expired.pem"))
        #expect(!expired.isTrusted)
        #expect(failed(expired) == ["TemporalValidity"], "\(expired)")

        let serverEKU = try trust(backend).evaluate(presentedChain: chain("client-server-eku.pem"))
        #expect(!serverEKU.isTrusted)
        #expect(failed(serverEKU).contains("ExtendedKeyUsage"), "\(serverEKU)")

        let other = try trust(backend).evaluate(presentedChain: IdentityFixtures.certificates("other-client.pem"))
        #expect(!other.isTrusted)
        #expect(other.error?.check.rawValue == "AnchorTrusted" || other.error?.check.rawValue == "MissingIntermediate", "\(other)")

        let wrongName = try trust(backend, expected: [.email("bob@example.com")]).evaluate(presentedChain: chain("client.pem"))
        #expect(!wrongName.isTrusted, "\(wrongName)")

        #expect(!(try trust(backend).evaluate(presentedChain: [])).isTrusted)
        #expect(try trust(backend).evaluate(presentedDER: [[0x30, 0x00]]).result == .otherError)
    }

    @Test("a presented certificate after the leaf that does not decode is left out and named", arguments: backends)
    func undecodableAfterLeaf(backend: String) throws {
        let der = try chain("client.pem").map(\.derEncoded)
        let report = try trust(backend).evaluate(presentedDER: [der[0], [0x30, 0x03, 0x02, 0x01, 0x00]] + der.dropFirst())
        #expect(report.isTrusted, "\(report)")
        #expect(report.skippedCertificates.map(\.index) == [1])
        #expect(report.skippedCertificates.first?.source == "the client's chain")
    }
}
