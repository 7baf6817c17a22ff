@testable import CertKit
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Testing

/// A report's fingerprints come from the backend's library on first use: an evaluation that needs no exception
/// computes no digest, the fingerprints are then each certificate's SHA-256, computed once per report, and an
/// exception still binds to the leaf's digest.
@Suite struct ReportFingerprintTests {
    static let chain = try! ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
    static let root = try! ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem")

    static func evaluation(host: String) -> TrustEvaluation {
        TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: host)], anchors: root, verifyDate: ConcurrencyFixtures.verifyDate)
    }

    @Test("no digest until the fingerprints are read; then one per certificate, once, on each backend")
    func fingerprintsOnFirstUse() throws {
        for real in [OpenSSLBackend(certificateCacheCapacity: 0), GnuTLSBackend(certificateCacheCapacity: 0)] as [any TrustBackend] {
            let backend = ForwardingBackend(real)
            let report = TrustEvaluator(backend: backend).evaluate(Self.evaluation(host: "leaf.example"))
            #expect(report.isTrusted)
            #expect(backend.calls(to: .digest) == 0, "\(real.name)")
            let copy = report
            let expected = try report.chain.map { try real.digest(.sha256, of: $0.derEncoded) }
            #expect(expected.count == 3 && expected.allSatisfy { $0.count == 32 })
            #expect(copy.fingerprints == expected, "\(real.name)")
            #expect(report.fingerprints == expected, "\(real.name)")
            #expect(backend.calls(to: .digest) == 3, "\(real.name): computed once for the report and its copy")
            #expect(copy == report)
        }
    }

    @Test("an exception made from a recoverable failure binds to the leaf's digest, and makes the next evaluation proceed")
    func exceptionsStillBindToTheLeaf() throws {
        let backend = ForwardingBackend(OpenSSLBackend())
        let evaluator = TrustEvaluator(backend: backend)
        let failing = evaluator.evaluate(Self.evaluation(host: "other.example"))
        #expect(failing.result == .recoverableTrustFailure)
        let exceptions = try #require(failing.exceptions)
        #expect(exceptions.leafSHA256 == Hex.encode(try OpenSSLBackend().digest(.sha256, of: Self.chain[0].derEncoded)))
        var excepted = Self.evaluation(host: "other.example")
        excepted.exceptions = exceptions
        let before = backend.calls(to: .digest)
        #expect(TrustEvaluator(backend: backend).evaluate(excepted).result == .proceed)
        #expect(backend.calls(to: .digest) == before + 1, "the leaf's digest, now, for the exception")
        // Another leaf's digest does not match.
        var wrong = Self.evaluation(host: "other.example")
        wrong.exceptions = TrustExceptions(leafSHA256: [UInt8](repeating: 7, count: 32), checks: Set(exceptions.checks))
        #expect(TrustEvaluator(backend: backend).evaluate(wrong).result == .recoverableTrustFailure)
    }
}
