@testable import CertKit
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Testing

/// A report's fingerprints come from the backend's library before the report is returned: each certificate's
/// SHA-256, computed once per evaluation (the leaf's reused when exceptions needed it) and kept with the certificate
/// object for the evaluator that computed it; reading, copying, comparing or hashing the report calls no library; an
/// exception still binds to the leaf's digest.
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

    @Test("an evaluator digests a certificate object once: the shared anchor and intermediate again cost nothing, a new leaf its own digest, another evaluator all of them")
    func fingerprintsKeptWithTheCertificate() throws {
        for real in [OpenSSLBackend(certificateCacheCapacity: 0), GnuTLSBackend(certificateCacheCapacity: 0)] as [any TrustBackend] {
            // Certificate objects of this test's own (the suite's are shared with tests that run at the same time).
            let decode = { (certificates: [Certificate]) in try certificates.map { try Certificate(derEncoded: $0.derEncoded) } }
            let chain = try decode(Self.chain), root = try decode(Self.root)
            func evaluation(_ certificates: [Certificate]) -> TrustEvaluation {
                TrustEvaluation(
                    certificates: certificates, policies: [.sslServer(host: "leaf.example")], anchors: root,
                    verifyDate: ConcurrencyFixtures.verifyDate)
            }
            let backend = ForwardingBackend(real)
            let evaluator = TrustEvaluator(backend: backend)
            let first = evaluator.evaluate(evaluation(chain))
            #expect(first.isTrusted && first.chain.count == 3, "\(real.name)")
            #expect(backend.calls(to: .digest) == 3, "\(real.name)")
            // The same certificate objects again: the fingerprints are kept with them.
            let again = evaluator.evaluate(evaluation(chain))
            #expect(backend.calls(to: .digest) == 3, "\(real.name): nothing digested again")
            #expect(again.fingerprints == first.fingerprints && first.fingerprints.count == 3, "\(real.name)")
            let expected = try first.chain.map { try real.digest(.sha256, of: $0.derEncoded) }
            #expect(first.fingerprints == expected, "\(real.name)")
            // A new leaf object (the same DER, decoded again) with the shared intermediate and anchor: one digest.
            let third = evaluator.evaluate(evaluation(try decode([chain[0]]) + chain.dropFirst()))
            #expect(backend.calls(to: .digest) == 4, "\(real.name): the new leaf object only")
            #expect(third.fingerprints == expected, "\(real.name)")
            // Another evaluator (whose backend could digest otherwise) digests every certificate itself.
            let other = ForwardingBackend(
                real, overrides: .init(digest: { _, _, _ throws(BackendError) in [UInt8](repeating: 9, count: 32) }))
            let overridden = TrustEvaluator(backend: other).evaluate(evaluation(chain))
            #expect(other.calls(to: .digest) == 3, "\(real.name)")
            #expect(overridden.fingerprints == Array(repeating: [UInt8](repeating: 9, count: 32), count: 3), "\(real.name)")
            #expect(evaluator.evaluate(evaluation(chain)).fingerprints == expected, "\(real.name)")
            #expect(backend.calls(to: .digest) == 4, "\(real.name)")
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
