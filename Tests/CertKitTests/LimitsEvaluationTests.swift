@testable import CertKit
import CertKitBackends
@testable import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Synchronization
import Testing

extension ForwardingBackend {
    /// Signature checks and library verdicts: the work the backend was asked to do on paths.
    var verifications: Int { calls(to: .verifySignature) + calls(to: .libraryVerdict) }
}

/// The evaluation bounds of `Limits` (fatal `ResourceLimit`, never covered), the path-building budget, and the
/// GnuTLS anchor store's bounded lists.
@Suite("Limits: evaluation bounds")
struct LimitsEvaluationTests {
    static let date = ConcurrencyFixtures.verifyDate

    static func limits(_ change: (inout Limits) -> Void) -> Limits {
        var limits = Limits.default
        change(&limits)
        return limits
    }

    static func certificates(_ bytes: [UInt8]) throws -> [Certificate] { try CertificateBundle.decode(bytes).certificates }

    static func selfNamedCAs(_ count: Int) throws -> [Certificate] {
        try certificates(AdversarialMatrix.expand(try AdversarialMatrix.load().recipe("issuer-2000-cas", "pool", count: count)))
    }

    static func expectRefused(_ report: TrustReport, naming bound: String) {
        #expect(report.result == .fatalTrustFailure)
        #expect(report.error?.check == .resourceLimit)
        #expect(report.error?.code == .errSecQuotaExceeded)
        #expect(report.error?.rule?.id == "certkit.resource-limit")
        #expect(report.error?.message.contains("Limits.\(bound)") == true, "\(report.error?.message ?? "")")
        #expect(report.checks.first?.contains(.resourceLimit) == true)
    }

    @Test("too many pool certificates: refused before any work, whatever exceptions or trust settings say")
    func poolBound() throws {
        let leaf = try Certificate(derEncoded: AdversarialMatrix.bytes("leaf.der"))
        let pool = try Self.selfNamedCAs(3)
        let backend = ForwardingBackend(OpenSSLBackend())
        let evaluator = TrustEvaluator(backend: backend, limits: Self.limits { $0.maxPoolCertificates = 2 })
        var evaluation = TrustEvaluation(certificates: [leaf] + pool, verifyDate: Self.date)
        Self.expectRefused(evaluator.evaluate(evaluation), naming: "maxPoolCertificates")
        evaluation.exceptions = TrustExceptions(
            leafSHA256: try backend.digest(.sha256, of: leaf.derEncoded), checks: [.resourceLimit])
        Self.expectRefused(evaluator.evaluate(evaluation), naming: "maxPoolCertificates")
        evaluation.trustSettings = TrustSettings(alwaysTrust: [leaf])
        Self.expectRefused(evaluator.evaluate(evaluation), naming: "maxPoolCertificates")
        #expect(backend.verifications == 0)

        // At the bound, the evaluation runs.
        let report = evaluator.evaluate(TrustEvaluation(certificates: [leaf] + pool.prefix(2), verifyDate: Self.date))
        #expect(report.error?.check != .resourceLimit)
        #expect(backend.verifications > 0)
    }

    @Test("the pool bound counts the extra intermediates (--intermediates) with the presented ones, on every backend",
          arguments: BackendRegistry.standard.names)
    func poolBoundCountsExtraIntermediates(backend: String) throws {
        let leaf = try Certificate(derEncoded: AdversarialMatrix.bytes("leaf.der"))
        let pool = try Self.selfNamedCAs(3)
        let evaluator = TrustEvaluator(
            backend: ConcurrencyFixtures.backend(backend), limits: Self.limits { $0.maxPoolCertificates = 2 })
        for presented in 0...3 {
            let evaluation = TrustEvaluation(
                certificates: [leaf] + pool.prefix(presented), verifyDate: Self.date,
                additionalIntermediates: Array(pool.prefix(3).dropFirst(presented)))
            Self.expectRefused(evaluator.evaluate(evaluation), naming: "maxPoolCertificates")
        }
        // At the bound, in the extra intermediates alone, the evaluation runs.
        let atBound = TrustEvaluation(certificates: [leaf], verifyDate: Self.date, additionalIntermediates: Array(pool.prefix(2)))
        #expect(evaluator.evaluate(atBound).error?.check != .resourceLimit)
    }

    @Test("skipped certificates count toward the pool bound with the result cache on: a cached pass is never reused past it",
          arguments: BackendRegistry.standard.names)
    func skippedCountInCachedEvaluations(backend: String) throws {
        let chain = try ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
        let root = try ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem")
        let evaluator = TrustEvaluator(
            backend: ConcurrencyFixtures.backend(backend), limits: Self.limits { $0.maxPoolCertificates = 2 },
            configuration: .cached)
        var evaluation = TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: "leaf.example")], anchors: root, verifyDate: Self.date)
        #expect(evaluator.evaluate(evaluation).isTrusted, "\(backend)")
        // The same chain, with two more certificates that did not decode: over the bound, whatever was cached.
        evaluation.skippedCertificates = [
            SkippedCertificate(source: "intermediates.pem", index: 0, reason: "does not decode"),
            SkippedCertificate(source: "intermediates.pem", index: 1, reason: "does not decode"),
        ]
        Self.expectRefused(evaluator.evaluate(evaluation), naming: "maxPoolCertificates")
    }

    @Test("too many anchors, CRLs or CRL entries: refused")
    func anchorAndCRLBounds() throws {
        let chain = try ConcurrencyFixtures.certificates("revoked-leaf/chain.pem")
        let root = try ConcurrencyFixtures.certificates("revoked-leaf/root-rsa.pem")
        let crl = try ConcurrencyFixtures.crl("revoked-leaf/int-revokes-leaf.crl.pem")
        let evaluation = TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: "leaf.example")], anchors: root + (try Self.selfNamedCAs(2)),
            verifyDate: Self.date, crls: [crl])
        let backend = OpenSSLBackend()
        Self.expectRefused(
            TrustEvaluator(backend: backend, limits: Self.limits { $0.maxAnchors = 2 }).evaluate(evaluation), naming: "maxAnchors")
        let entries = crl.revokedSerialNumbers.count
        var twice = evaluation
        twice.crls = [crl, crl]
        Self.expectRefused(
            TrustEvaluator(backend: backend, limits: Self.limits { $0.maxCRLs = 1 }).evaluate(twice), naming: "maxCRLs")
        Self.expectRefused(
            TrustEvaluator(backend: backend, limits: Self.limits { $0.maxCRLEntries = entries - 1 }).evaluate(evaluation),
            naming: "maxCRLEntries")
        let report = TrustEvaluator(backend: backend, limits: Self.limits { $0.maxAnchors = 3; $0.maxCRLEntries = entries })
            .evaluate(evaluation)
        #expect(report.error?.check == .revocation)
    }

    @Test("name constraints: 1,000 SANs × 1,000 constraints is checked in full under 2^20, refused under a lower bound",
          arguments: BackendRegistry.standard.names)
    func nameConstraintBound(backendName: String) throws {
        let chain = try Self.certificates(AdversarialMatrix.bytes("san-1000-nc-1000-signed.pem"))
        let root = try Self.certificates(AdversarialMatrix.bytes("root.der"))
        let evaluation = TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: "host00000.zone0000.example")], anchors: root,
            verifyDate: Self.date)
        let backend = ForwardingBackend(ConcurrencyFixtures.backend(backendName))
        #expect(TrustEvaluator(backend: backend).evaluate(evaluation).result == .unspecified)
        let verified = backend.verifications

        // (1,000 SANs + the subject + the host) × 1,000 constraints = 1,002,000 comparisons.
        let tight = TrustEvaluator(backend: backend, limits: Self.limits { $0.maxNameConstraintComparisons = 1_001_999 })
        let refused = tight.evaluate(evaluation)
        Self.expectRefused(refused, naming: "maxNameConstraintComparisons")
        #expect(refused.error?.message.contains("1002000 comparisons") == true)
        #expect(backend.verifications == verified, "the backend never sees the path")
        let exact = TrustEvaluator(backend: backend, limits: Self.limits { $0.maxNameConstraintComparisons = 1_002_000 })
        #expect(exact.evaluate(evaluation).result == .unspecified)
    }

    @Test("10,000 SANs × 1,000 constraints, signed and anchored: fatal, and exceptions naming the check do not apply",
          arguments: BackendRegistry.standard.names)
    func nameConstraintsNeverPass(backendName: String) throws {
        let chain = try Self.certificates(AdversarialMatrix.bytes("san-nc-signed.pem"))
        var evaluation = TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: "host00000.zone0000.example")],
            anchors: try Self.certificates(AdversarialMatrix.bytes("root.der")), verifyDate: Self.date)
        let evaluator = TrustEvaluator(backend: ConcurrencyFixtures.backend(backendName))
        Self.expectRefused(evaluator.evaluate(evaluation), naming: "maxNameConstraintComparisons")
        evaluation.exceptions = try TrustExceptions(jsonData: Data(AdversarialMatrix.bytes("san-nc-signed-exceptions.json")))
        #expect(evaluation.exceptions?.checks == [.resourceLimit])
        Self.expectRefused(evaluator.evaluate(evaluation), naming: "maxNameConstraintComparisons")
    }

    @Test("2,000 CAs naming themselves as the leaf's issuer: the comparison budget ends the search")
    func issuerComparisonBudget() throws {
        let leaf = try Certificate(derEncoded: AdversarialMatrix.bytes("leaf.der"))
        let pool = try Self.selfNamedCAs(2_000)
        #expect(Set(pool.map(\.publicKey)).count == 2_000)
        var builder = ChainBuilder(leaf: leaf, pool: pool, anchors: [], date: Self.date)
        while builder.next() != nil {}
        #expect(builder.limitReached)
        var tight = ChainBuilder(
            leaf: leaf, pool: pool, anchors: [], date: Self.date, limits: Self.limits { $0.maxIssuerComparisons = 1_999 })
        #expect(tight.next() == nil)
        #expect(tight.limitReached && tight.deadEnds.isEmpty)

        let report = TrustEvaluator(backend: OpenSSLBackend())
            .evaluate(TrustEvaluation(certificates: [leaf], verifyDate: Self.date, additionalIntermediates: pool))
        #expect(report.result == .recoverableTrustFailure)
        #expect(report.checks[0].contains(.pathBuildingLimit))
    }

    @Test("an issuer whose name differs only by case and spaces is found among more than 64 certificates")
    func foldedIssuerLookup() throws {
        typealias T = LimitsTestCertificates
        let caName = T.name([(T.commonName, "Issuing CA"), (T.organization, "Example")])
        let ca = try T.make(issuer: caName, subject: caName, serial: 1)
        let leaf = try T.make(
            issuer: T.name([(T.commonName, "  ISSUING   ca "), (T.organization, "EXAMPLE")], printable: true),
            subject: T.name([(T.commonName, "leaf.example")]), serial: 2, ca: false)
        let distractors = try (0..<100).map { index in
            let name = T.name([(T.commonName, "Distractor \(index)")])
            return try T.make(issuer: name, subject: name, serial: 10 + index)
        }
        var throughAnchors = ChainBuilder(leaf: leaf, pool: distractors, anchors: distractors + [ca], date: Self.date)
        #expect(throughAnchors.next()?.certificates == [leaf, ca])
        var throughPool = ChainBuilder(leaf: leaf, pool: distractors + [ca], anchors: [], date: Self.date)
        #expect(throughPool.next() == nil)
        #expect(throughPool.bestDeadEnd == [leaf, ca])
    }

    @Test("GnuTLS makes an anchor's trust list when a path first ends there, and keeps a bounded number")
    func gnutlsListsOnDemand() throws {
        let anchors = try Self.certificates(
            AdversarialMatrix.expand(try AdversarialMatrix.load().recipe("anchors-1000", "anchors", count: 300)))
        let store = try GnuTLSAnchorStore(anchors: anchors)
        #expect(store.keptListCount == 0)
        #expect(try store.makeTrustList(for: anchors[0].derEncoded) != nil)
        #expect(store.keptListCount == 1)
        #expect(try store.makeTrustList(for: AdversarialMatrix.bytes("leaf.der")) == nil, "not an anchor")
        for anchor in anchors { _ = try store.makeTrustList(for: anchor.derEncoded) }
        #expect(store.keptListCount <= GnuTLSAnchorStore.listCapacity)
        #expect(store.trustList(for: anchors[299].derEncoded) != nil)
    }
}
