import CertKit
import CertKitBackends
import Foundation
import Testing

/// The result cache and stapled OCSP answers, on every backend: a staple is part of what a result
/// depends on (a revoked staple is never answered from a cached result computed without it), and a result that
/// relied on an OCSP answer is not reused across that answer's nextUpdate (the CRL twin is
/// `RuleBoundaryTests.crlWindow`). Fixtures: Tests/Fixtures/ocsp.
@Suite("Result cache: stapled OCSP responses in the key, an answer's nextUpdate ends the window")
struct OCSPResultCacheTests {
    static func evaluation(_ leaf: String) throws -> TrustEvaluation {
        TrustEvaluation(
            certificates: [try OCSPResponseTests.certificate(leaf)], policies: [.sslServer(host: "leaf.example")],
            anchors: [try OCSPResponseTests.certificate("ca.pem")], verifyDate: try OCSPResponseTests.verifyDate())
    }

    @Test("a revoked staple is not answered from a result cached without it, nor a bare chain from one cached with it",
          arguments: BackendRegistry.standard.names)
    func stapleIsPartOfTheKey(backend: String) throws {
        let bare = try Self.evaluation("leaf-revoked.pem")
        var stapled = bare
        stapled.ocspResponses = [try OCSPResponse(derEncoded: OCSPResponseTests.bytes("revoked.der"))]
        for (first, second) in [(bare, stapled), (stapled, bare)] {
            let cached = TrustEvaluator(backend: ConcurrencyFixtures.backend(backend), configuration: .cached)
            let reference = TrustEvaluator(backend: ConcurrencyFixtures.backend(backend), configuration: .uncached)
            #expect(cached.evaluate(first) == reference.evaluate(first))
            #expect(cached.evaluate(second) == reference.evaluate(second), "answered from the cache")
            #expect(cached.cacheStatistics.resultHits == 0)
        }
        let reference = TrustEvaluator(backend: ConcurrencyFixtures.backend(backend), configuration: .uncached)
        #expect(reference.evaluate(bare).isTrusted, "the fixture: without the staple the chain is trusted")
        #expect(reference.evaluate(stapled).error?.check == .revocation, "the fixture: the staple revokes the leaf")
    }

    @Test("a result with an OCSP answer is not reused across the answer's nextUpdate", arguments: BackendRegistry.standard.names)
    func nextUpdateEndsTheWindow(backend: String) throws {
        var evaluation = try Self.evaluation("leaf-good.pem")
        let response = try OCSPResponse(derEncoded: OCSPResponseTests.bytes("good.der"))
        evaluation.ocspResponses = [response]
        let nextUpdate = try #require(response.basic?.responses.first?.nextUpdate)
        // Trusted with a good answer before nextUpdate; after it the answer is invalid (RevocationResponseRequired).
        RuleBoundaryTests.boundary(evaluation, at: nextUpdate, backend: backend)
    }
}
