import CertKit
import CertKitBackends
import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// ``ServerTrust``, the library side of a server-trust challenge, with each registered backend.
struct ConnectServerTrustTests {
    static let backends = BackendRegistry.standard.names

    private func certificates(_ name: String) throws -> [Certificate] {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: FixtureLocator.sample(name)))
        return try CertificateBundle.decode(Array(bytes)).certificates
    }

    private func trust(_ backend: String, anchors: String) throws -> ServerTrust {
        let made = try #require(BackendRegistry.standard.backend(named: backend))
        return ServerTrust(evaluator: TrustEvaluator(backend: made), anchors: try certificates(anchors))
    }

    @Test("presented DER chain and host: trusted; another host: errSecHostNameMismatch", arguments: backends)
    func presentedChain(backend: String) throws {
        let trust = try trust(backend, anchors: "root-ca.pem")
        let der = try certificates("server-chain.pem").map(\.derEncoded)
        let report = trust.evaluate(presentedDER: der, host: "localhost")
        #expect(report.result == .unspecified, "\(report.error.map(\.description) ?? "")")
        #expect(trust.evaluate(presentedDER: der, host: "[127.0.0.1]").result == .unspecified)
        let other = trust.evaluate(presentedDER: der, host: "example.org")
        #expect(other.result == .recoverableTrustFailure)
        #expect(other.error?.code == .errSecHostNameMismatch)
    }

    @Test("an undecodable certificate is otherError, never trusted", arguments: backends)
    func undecodable(backend: String) throws {
        let trust = try trust(backend, anchors: "root-ca.pem")
        let report = trust.evaluate(presentedDER: [[0x30, 0x03, 0x02, 0x01, 0x00]], host: "localhost")
        #expect(report.result == .otherError)
        #expect(!report.isTrusted)
        #expect(report.error?.message.contains("certificate 0 cannot be decoded") == true)
    }

    @Test("exceptions: accepted once, proceed for the same leaf, not for another", arguments: backends)
    func exceptions(backend: String) throws {
        var trust = try trust(backend, anchors: "root-ca.pem")
        let selfSigned = try certificates("self-signed.pem")
        let first = trust.evaluate(presentedChain: selfSigned, host: "localhost")
        #expect(first.result == .recoverableTrustFailure)
        let accepted: TrustExceptions = try #require(first.exceptions)
        trust.exceptions = accepted
        #expect(trust.evaluate(presentedChain: selfSigned, host: "localhost").result == .proceed)
        let other = trust.evaluate(presentedChain: try certificates("wrong-host.pem"), host: "localhost")
        #expect(other.result == .recoverableTrustFailure)
    }
}
