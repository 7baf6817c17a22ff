@testable import CertKit
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Testing

/// A report's fingerprints come from the backend's library before the report is returned: each certificate's
/// SHA-256, computed once per evaluation (the leaf's reused when exceptions needed it); reading, copying, comparing
/// or hashing the report calls no library; an exception still binds to the leaf's digest.
@Suite struct ReportFingerprintTests {
    static let chain = try! ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
    static let root = try! ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem")

    static func evaluation(host: String) -> TrustEvaluation {
        TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: host)], anchors: root, verifyDate: ConcurrencyFixtures.verifyDate)
    }

    @Test("one digest per certificate before the report is returned; reading, comparing and hashing call no library")
    func fingerprintsBeforeReturn() throws {
        for real in [OpenSSLBackend(certificateCacheCapacity: 0), GnuTLSBackend(certificateCacheCapacity: 0)] as [any TrustBackend] {
            let backend = ForwardingBackend(real)
            let report = TrustEvaluator(backend: backend).evaluate(Self.evaluation(host: "leaf.example"))
            #expect(report.isTrusted)
            #expect(backend.calls(to: .digest) == 3, "\(real.name): one per certificate of the chain")
            let copy = report
            let expected = try report.chain.map { try real.digest(.sha256, of: $0.derEncoded) }
            #expect(expected.count == 3 && expected.allSatisfy { $0.count == 32 })
            #expect(copy.fingerprints == expected, "\(real.name)")
            #expect(report.fingerprints == expected, "\(real.name)")
            #expect(copy == report)
            #expect(Set([copy, report]).count == 1)
            #expect(backend.calls(to: .digest) == 3, "\(real.name): nothing more after the report is returned")
        }
    }

    @Test("a library that cannot digest leaves the fingerprints empty and makes no exception")
    func digestFailureLeavesNoFingerprints() throws {
        let backend = ForwardingBackend(
            OpenSSLBackend(), overrides: .init(digest: { _, _, _ throws(BackendError) in throw BackendError(.library, "digest refused") }))
        let report = TrustEvaluator(backend: backend).evaluate(Self.evaluation(host: "other.example"))
        #expect(report.result == .recoverableTrustFailure)
        #expect(report.fingerprints.isEmpty)
        #expect(report.exceptions == nil)
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
        #expect(backend.calls(to: .digest) == before + 3, "the leaf's digest for the exception, reused as its fingerprint")
        // Another leaf's digest does not match.
        var wrong = Self.evaluation(host: "other.example")
        wrong.exceptions = TrustExceptions(leafSHA256: [UInt8](repeating: 7, count: 32), checks: Set(exceptions.checks))
        #expect(TrustEvaluator(backend: backend).evaluate(wrong).result == .recoverableTrustFailure)
    }
}
