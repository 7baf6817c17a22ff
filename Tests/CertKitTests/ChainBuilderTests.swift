import CertKit
import CertKitBackends
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

@Suite("Chain building")
struct ChainBuilderTests {
    static let scenarios = FixtureLocator.scenarios
    static let date = Date(timeIntervalSince1970: 1_906_934_400)  // 2030-06-06

    static func load(_ relative: String) throws -> [Certificate] {
        try CertificateBundle.decode([UInt8](Data(contentsOf: scenarios.appendingPathComponent(relative)))).certificates
    }

    /// A leaf named as issued by "CN=Mesh CA" but with no authority key identifier, so every one of the 150
    /// mesh certificates is an issuer candidate at every level: the hostile case the work limits exist for.
    static func leafWithoutKeyIdentifier() throws -> Certificate {
        let temporary = try TemporaryDirectory(prefix: "certkit-encoding")
        let directory = temporary.url
        let d = directory.path
        try EncodingTestSupport.shell("""
            cd '\(d)' && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key \
              -subj '/CN=Mesh CA' -days 3650 -out ca.pem 2>/dev/null && \
            openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout leaf.key \
              -subj '/CN=leaf.example' -out leaf.csr 2>/dev/null && \
            openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -set_serial 7 -days 3650 \
              -out leaf.pem 2>/dev/null
            """)
        let leaf = try #require(try CertificateBundle.decode(EncodingTestSupport.read(directory.appendingPathComponent("leaf.pem"))).certificates.first)
        #expect(leaf.extensions.authorityKeyIdentifier == nil)
        return leaf
    }

    @Test("a 50-CA mesh with no path stops at the work limit on both backends",
          arguments: BackendRegistry.standard.allBackends())
    func meshStopsAtWorkLimit(backend: any TrustBackend) throws {
        let mesh = try Self.load("mesh-no-path/intermediates.pem")
        #expect(mesh.count == 150)
        let anchors = try Self.load("mesh-no-path/other-root-rsa.pem")
        let leaf = try Self.leafWithoutKeyIdentifier()
        let limits = ChainBuilder.Limits()
        let evaluator = TrustEvaluator(backend: backend, limits: limits)
        let report = evaluator.evaluate(TrustEvaluation(
            certificates: [leaf], anchors: anchors, verifyDate: Date(), additionalIntermediates: mesh))
        #expect(report.result == .recoverableTrustFailure)
        #expect(report.error?.check == .pathBuildingLimit)
        #expect(report.error?.code == .errSecCreateChainFailed)
        #expect(report.checks[0].contains(.pathBuildingLimit))
        #expect(report.pathsTried <= limits.maxCandidates + 1)
    }

    @Test("the builder's own limits bound expansions and queue size")
    func builderLimits() throws {
        let mesh = try Self.load("mesh-no-path/intermediates.pem")
        let leaf = try Self.leafWithoutKeyIdentifier()
        var builder = ChainBuilder(
            leaf: leaf, pool: mesh, anchors: [], date: Date(),
            limits: .init(maxDepth: 10, maxExpansions: 100, maxCandidates: 8, maxQueued: 500))
        #expect(builder.next() == nil)
        #expect(builder.limitReached)
    }

    @Test("anchors come first, then key-identifier matches, then valid certificates")
    func candidateOrder() throws {
        // Let's Encrypt 2021: the path must end at the self-signed new root, not run through the cross-sign.
        let chain = try Self.load("cross-signed-root-new-anchor/chain.pem")
        let anchors = try Self.load("cross-signed-root-new-anchor/new-root.pem")
        var builder = ChainBuilder(leaf: chain[0], pool: Array(chain.dropFirst()), anchors: anchors, date: Self.date)
        let next = builder.next()
        let first = try #require(next)
        #expect(first.endsAtAnchor)
        #expect(first.certificates.last == anchors[0])
        #expect(first.certificates.count == 3)
    }

    @Test("no certificate appears twice in a path, even in a cross-sign loop")
    func noLoops() throws {
        let chain = try Self.load("cross-sign-loop/chain.pem")
        let pool = Array(chain.dropFirst()) + (try Self.load("cross-sign-loop/intermediates.pem"))
        var builder = ChainBuilder(leaf: chain[0], pool: pool, anchors: [], date: Self.date)
        while let candidate = builder.next() {
            #expect(Set(candidate.certificates).count == candidate.certificates.count)
        }
        let deadEnd = try #require(builder.bestDeadEnd)
        #expect(Set(deadEnd).count == deadEnd.count)
        let keys = deadEnd.map { $0.subject.derEncoded + $0.publicKey.derEncoded }
        #expect(Set(keys).count == keys.count)
    }

    @Test("the report names how many paths were tried and returns the path used")
    func reportCarriesPath() throws {
        let chain = try Self.load("two-paths-one-expired/chain.pem")
        let anchors = try Self.load("two-paths-one-expired/anchor-int.pem")
        let report = TrustEvaluator(backend: OpenSSLBackend()).evaluate(
            TrustEvaluation(certificates: chain, anchors: anchors, verifyDate: Self.date))
        #expect(report.result == .unspecified)
        #expect(report.pathsTried >= 1)
        #expect(report.chain.allSatisfy { $0.isValid(at: Self.date) })
    }
}
