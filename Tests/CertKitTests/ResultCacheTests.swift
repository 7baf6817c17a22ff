import CertKit
import CertKitBackends
import Foundation
import Testing

/// The result cache answers repeats and never reuses a result whose inputs or validity state differ.
@Suite("Result cache")
struct ResultCacheTests {
    let rsaChain: [Certificate]
    let rsaRoot: [Certificate]
    let ecRoot: [Certificate]

    init() throws {
        rsaChain = try ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
        rsaRoot = try ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem")
        ecRoot = try ConcurrencyFixtures.certificates("valid-chain-ec/root-ec.pem")
    }

    /// An evaluator with the result cache on (the default) and one with it off, to compare against.
    private func evaluators(_ backend: String) -> (cached: TrustEvaluator, reference: TrustEvaluator) {
        let backend = ConcurrencyFixtures.backend(backend)
        return (TrustEvaluator(backend: backend, configuration: .cached), TrustEvaluator(backend: backend, configuration: .uncached))
    }

    @Test("a repeated evaluation is served from the cache", arguments: BackendRegistry.standard.names)
    func repeatIsAHit(backend: String) {
        let (cached, reference) = evaluators(backend)
        let evaluation = ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot)
        let first = cached.evaluate(evaluation)
        #expect(first.result == .unspecified)
        #expect(cached.cacheStatistics == .init(resultHits: 0, resultMisses: 1, resultEntries: 1))
        let second = cached.evaluate(evaluation)
        #expect(cached.cacheStatistics == .init(resultHits: 1, resultMisses: 1, resultEntries: 1))
        #expect(second == first)
        #expect(second == reference.evaluate(evaluation))

        // Equal inputs built from separately parsed certificates are the same key.
        let reparsed = ConcurrencyFixtures.evaluation(
            chain: rsaChain.map { try! Certificate(derEncoded: $0.derEncoded) }, anchors: rsaRoot)
        #expect(cached.evaluate(reparsed) == first)
        #expect(cached.cacheStatistics.resultHits == 2)
    }

    @Test("another verify date inside the same validity window is a hit, reported at its own date")
    func sameWindowIsAHit() {
        let (cached, reference) = evaluators("openssl")
        _ = cached.evaluate(ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot))
        let later = ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot, date: ConcurrencyFixtures.date("2031-01-15"))
        let report = cached.evaluate(later)
        #expect(cached.cacheStatistics.resultHits == 1)
        #expect(report.verifyDate == ConcurrencyFixtures.date("2031-01-15"))
        #expect(report == reference.evaluate(later))
    }

    @Test("crossing the leaf's notAfter is never served from the cache", arguments: BackendRegistry.standard.names)
    func expiryIsNotReused(backend: String) throws {
        let (cached, reference) = evaluators(backend)
        let leaf = try #require(rsaChain.first)
        let before = leaf.notAfter.addingTimeInterval(-3_600)
        let after = leaf.notAfter.addingTimeInterval(3_600)
        let valid = cached.evaluate(ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot, date: before))
        #expect(valid.result == .unspecified)
        let expiredEvaluation = ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot, date: after)
        let expired = cached.evaluate(expiredEvaluation)
        #expect(expired.result == .recoverableTrustFailure)
        #expect(expired.checks.first?.contains(.temporalValidity) == true)
        #expect(expired == reference.evaluate(expiredEvaluation))
        #expect(cached.cacheStatistics.resultHits == 0)

        // One second past notAfter is already a different window; both windows stay cached.
        let justAfter = ConcurrencyFixtures.evaluation(
            chain: rsaChain, anchors: rsaRoot, date: leaf.notAfter.addingTimeInterval(1.5))
        #expect(cached.evaluate(justAfter).result == .recoverableTrustFailure)
        #expect(cached.evaluate(ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot, date: before)) == valid)
        #expect(cached.cacheStatistics.resultHits >= 1)
    }

    @Test("another host is a different key", arguments: BackendRegistry.standard.names)
    func otherHostIsAMiss(backend: String) {
        let (cached, reference) = evaluators(backend)
        #expect(cached.evaluate(ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot)).isTrusted)
        let other = ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot, host: "other.example")
        let report = cached.evaluate(other)
        #expect(report.result == .recoverableTrustFailure)
        #expect(report.error?.check == .sslHostname)
        #expect(report == reference.evaluate(other))
        #expect(cached.cacheStatistics.resultHits == 0)
    }

    @Test("other anchors are a different key", arguments: BackendRegistry.standard.names)
    func otherAnchorsAreAMiss(backend: String) {
        let (cached, reference) = evaluators(backend)
        #expect(cached.evaluate(ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot)).isTrusted)
        let other = ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: ecRoot)
        let report = cached.evaluate(other)
        #expect(!report.isTrusted)
        #expect(report == reference.evaluate(other))
        // Adding an anchor to the set is also a different key (still trusted, but not a hit).
        #expect(cached.evaluate(ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot + ecRoot)).isTrusted)
        #expect(cached.cacheStatistics.resultHits == 0)
    }

    @Test("adding a CRL is a different key", arguments: BackendRegistry.standard.names)
    func crlIsAMiss(backend: String) throws {
        let (cached, reference) = evaluators(backend)
        let chain = try ConcurrencyFixtures.certificates("revoked-leaf/chain.pem")
        let root = try ConcurrencyFixtures.certificates("revoked-leaf/root-rsa.pem")
        let crl = try ConcurrencyFixtures.crl("revoked-leaf/int-revokes-leaf.crl.pem")
        #expect(cached.evaluate(ConcurrencyFixtures.evaluation(chain: chain, anchors: root)).isTrusted)
        var withCRL = ConcurrencyFixtures.evaluation(chain: chain, anchors: root)
        withCRL.crls = [crl]
        let report = cached.evaluate(withCRL)
        #expect(report.result == .fatalTrustFailure)
        #expect(report.error?.check == .revocation)
        #expect(report == reference.evaluate(withCRL))
        #expect(cached.cacheStatistics.resultHits == 0)
    }

    @Test("a result with a CRL is not reused after the CRL's nextUpdate")
    func crlNextUpdateBoundsTheWindow() throws {
        let (cached, reference) = evaluators("openssl")
        let chain = try ConcurrencyFixtures.certificates("revoked-leaf/chain.pem")
        let root = try ConcurrencyFixtures.certificates("revoked-leaf/root-rsa.pem")
        let crl = try ConcurrencyFixtures.crl("revoked-leaf/int-revokes-leaf.crl.pem")
        let nextUpdate = try #require(crl.nextUpdate)
        var evaluation = ConcurrencyFixtures.evaluation(chain: chain, anchors: root)
        evaluation.crls = [crl]
        _ = cached.evaluate(evaluation)
        evaluation.verifyDate = nextUpdate.addingTimeInterval(86_400)
        #expect(cached.evaluate(evaluation) == reference.evaluate(evaluation))
        #expect(cached.cacheStatistics.resultHits == 0)
    }

    @Test("adding a distrust setting is a different key", arguments: BackendRegistry.standard.names)
    func distrustIsAMiss(backend: String) {
        let (cached, reference) = evaluators(backend)
        #expect(cached.evaluate(ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot)).isTrusted)
        var distrusted = ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot)
        distrusted.trustSettings = TrustSettings(distrust: [rsaChain[1]])
        let report = cached.evaluate(distrusted)
        #expect(report.result == .deny)
        #expect(report == reference.evaluate(distrusted))
        #expect(cached.cacheStatistics.resultHits == 0)
    }

    @Test("turned off, nothing is cached")
    func offMeansOff() {
        let evaluator = TrustEvaluator(backend: ConcurrencyFixtures.backend("openssl"), configuration: .uncached)
        let evaluation = ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot)
        #expect(evaluator.evaluate(evaluation) == evaluator.evaluate(evaluation))
        #expect(evaluator.cacheStatistics == .init())
    }

    @Test("the cache is bounded")
    func bounded() {
        let evaluator = TrustEvaluator(
            backend: ConcurrencyFixtures.backend("openssl"),
            configuration: .init(resultCacheEnabled: true, resultCacheCapacity: 2))
        for host in ["a.example", "b.example", "c.example"] {
            _ = evaluator.evaluate(ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot, host: host))
        }
        #expect(evaluator.cacheStatistics.resultEntries == 2)
        // "a" was evicted (least recently used): evaluating it again is a miss.
        _ = evaluator.evaluate(ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot, host: "a.example"))
        #expect(evaluator.cacheStatistics.resultHits == 0)
        _ = evaluator.evaluate(ConcurrencyFixtures.evaluation(chain: rsaChain, anchors: rsaRoot, host: "c.example"))
        #expect(evaluator.cacheStatistics.resultHits == 1)
    }
}
