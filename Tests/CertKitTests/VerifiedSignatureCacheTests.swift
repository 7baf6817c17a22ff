@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// An evaluator remembers the links whose signature verified, keyed by the whole certificate and the whole signer
/// key: a link seen again is not verified again, while another signer key with the same name, a forged signature
/// or a disabled cache always goes to the backend.
@Suite struct VerifiedSignatureCacheTests {
    static let date = ISO8601DateFormatter().date(from: "2030-06-01T00:00:00Z")!
    static let chain = "valid-chain-rsa/chain.pem"
    static let root = "valid-chain-rsa/root-rsa.pem"

    static func evaluation(_ chain: String, anchor: String) throws -> TrustEvaluation {
        TrustEvaluation(
            certificates: try Fixtures.certificates(chain), policies: [.sslServer(host: "leaf.example")],
            anchors: try Fixtures.certificates(anchor), verifyDate: date)
    }

    static func evaluator(_ backend: ForwardingBackend, secondOpinion: Bool = false, capacity: Int = 1_024) -> TrustEvaluator {
        TrustEvaluator(
            backend: backend,
            configuration: .init(libraryAudit: secondOpinion, verifiedSignatureCacheCapacity: capacity))
    }

    @Test("a chain evaluated again costs no signature verification; with the cache off it costs them all")
    func repeatedChain() throws {
        for entry in BackendRegistry.standard.entries {
            for capacity in [1_024, 0] {
                let backend = ForwardingBackend(entry.backend(certificateCacheCapacity: 256))
                let evaluator = Self.evaluator(backend, capacity: capacity)
                let evaluation = try Self.evaluation(Self.chain, anchor: Self.root)
                #expect(evaluator.evaluate(evaluation).isTrusted, "\(entry.name)")
                #expect(backend.calls(to: .verifySignature) == 2, "\(entry.name)")
                #expect(evaluator.evaluate(evaluation).isTrusted, "\(entry.name)")
                let expected = capacity == 0 ? 4 : 2
                #expect(backend.calls(to: .verifySignature) == expected, "\(entry.name) \(capacity)")
            }
        }
    }

    @Test("a verified link is not reused for another signer key with the same name and key identifier", arguments: [false, true])
    func otherSignerKey(secondOpinion: Bool) throws {
        let pki = try TestPKI.openSSLBackend.get()
        let chain = [try pki.certificate("leaf"), try pki.certificate("int")]
        func evaluation(_ anchor: String) throws -> TrustEvaluation {
            TrustEvaluation(
                certificates: chain, policies: [.basicX509], anchors: [try pki.certificate(anchor)], verifyDate: Self.date)
        }
        for entry in BackendRegistry.standard.entries {
            let backend = ForwardingBackend(entry.backend(certificateCacheCapacity: 256))
            let evaluator = Self.evaluator(backend, secondOpinion: secondOpinion)
            #expect(evaluator.evaluate(try evaluation("root")).isTrusted, "\(entry.name)")
            // The impostor is proposed as the intermediate's issuer (same name and key identifier); the link's
            // signature must be verified with its key, and fails.
            let before = backend.calls(to: .verifySignature)
            let impostor = evaluator.evaluate(try evaluation("root-twin"))
            #expect(!impostor.isTrusted, "\(entry.name)")
            #expect(backend.calls(to: .verifySignature) > before, "\(entry.name)")
        }
    }

    @Test("a signature that fails is never remembered: the forged chain fails every time", arguments: [false, true])
    func forgedLinkNotRemembered(secondOpinion: Bool) throws {
        for entry in BackendRegistry.standard.entries {
            let backend = ForwardingBackend(entry.backend(certificateCacheCapacity: 256))
            let evaluator = Self.evaluator(backend, secondOpinion: secondOpinion)
            let forged = try Self.evaluation("bad-signature-intermediate/chain.pem", anchor: Self.root)
            for round in 0..<3 {
                let report = evaluator.evaluate(forged)
                #expect(!report.isTrusted, "\(entry.name) round \(round)")
                #expect(
                    report.checks.count > 1 && report.checks[1].contains(.signature),
                    "\(entry.name) round \(round): \(report.checks)")
            }
            // The genuine intermediate under the same root still verifies (a failure did not poison the link).
            #expect(evaluator.evaluate(try Self.evaluation(Self.chain, anchor: Self.root)).isTrusted, "\(entry.name)")
        }
    }

    @Test("the cache is bounded and keeps no certificate over 16 KiB")
    func bounded() throws {
        let cache = VerifiedSignatureCache(capacity: 2)
        let path = try Fixtures.certificates(Self.chain) + Fixtures.certificates(Self.root)
        let links = zip(path, path.dropFirst()).compactMap { cache.link($0, signedBy: $1) }
        #expect(links.count == 2)
        for link in links { cache.recordVerified(link) }
        cache.recordVerified(try #require(cache.link(path[2], signedBy: path[2])))
        #expect(cache.count == 2)
        #expect(!cache.isVerified(links[0]))
        #expect(cache.isVerified(links[1]))
        #expect(VerifiedSignatureCache(capacity: 0).link(path[0], signedBy: path[1]) == nil)
        // A leaf with 1,000 SANs (about 33 KB) is verified every time, never kept.
        let large = try CertificateBundle.decode(AdversarialMatrix.bytes("san-1000-nc-1000-signed.pem")).certificates
        #expect(large[0].derEncoded.count > VerifiedSignatureCache.maxCertificateBytes)
        #expect(cache.link(large[0], signedBy: large[1]) == nil)
    }
}
