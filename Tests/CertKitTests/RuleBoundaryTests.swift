import CertKit
import CertKitBackends
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

extension ForwardingBackend {
    /// OpenSSL for everything, except that its library verdict (the audit mode's) is `facts`.
    static func fixedOpinion(_ facts: [LibraryFact]) -> ForwardingBackend {
        ForwardingBackend(
            OpenSSLBackend(), name: "fixed-opinion", overrides: .init(libraryVerdict: { _, _, _, _, _ in facts }))
    }
}

/// Unit tests that fail when a boundary of the result cache, the cache key, the chain builder's limits or
/// the exceptions rule moves by one step. They use the `rules-*` fixtures (the rules fixture set)
/// and compare a cached evaluator with an uncached one, so they hold whatever the backend finds.
@Suite("Rule boundaries: cache windows, cache key, builder limits, exceptions")
struct RuleBoundaryTests {
    static func certificates(_ relative: String) throws -> [Certificate] {
        try ConcurrencyFixtures.certificates(relative)
    }

    static func crl(_ relative: String) throws -> CertificateRevocationList {
        try ConcurrencyFixtures.crl(relative)
    }

    static func at(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

    /// SHA-256 of the DER, computed by a library (the core has no hash of its own).
    static func sha256(_ certificate: Certificate) throws -> [UInt8] {
        try OpenSSLBackend().digest(.sha256, of: certificate.derEncoded)
    }

    /// Evaluates `evaluation` at `first` with a cached evaluator, then at `second`: the second report must be the one
    /// an uncached evaluator gives at `second`. Returns the uncached reports at both dates.
    @discardableResult
    static func crossing(
        _ evaluation: TrustEvaluation, from first: Date, to second: Date, backend: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (TrustReport, TrustReport) {
        let cached = TrustEvaluator(backend: ConcurrencyFixtures.backend(backend), configuration: .cached)
        let reference = TrustEvaluator(backend: ConcurrencyFixtures.backend(backend), configuration: .uncached)
        var warm = evaluation
        warm.verifyDate = first
        var probe = evaluation
        probe.verifyDate = second
        #expect(cached.evaluate(warm) == reference.evaluate(warm), sourceLocation: sourceLocation)
        let expected = reference.evaluate(probe)
        #expect(cached.evaluate(probe) == expected, "cached report reused across a boundary", sourceLocation: sourceLocation)
        #expect(cached.cacheStatistics.resultEntries == 1, "the result cache is not in use", sourceLocation: sourceLocation)
        return (reference.evaluate(warm), expected)
    }

    /// Crosses `boundary` both ways, one second on each side, and checks that the result does change there (so the
    /// crossing means something).
    static func boundary(
        _ evaluation: TrustEvaluation, at boundary: Date, backend: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = boundary.addingTimeInterval(-1)
        let after = boundary.addingTimeInterval(1)
        let (early, late) = crossing(evaluation, from: before, to: after, backend: backend, sourceLocation: sourceLocation)
        crossing(evaluation, from: after, to: before, backend: backend, sourceLocation: sourceLocation)
        crossing(evaluation, from: before, to: boundary, backend: backend, sourceLocation: sourceLocation)
        crossing(evaluation, from: after, to: boundary, backend: backend, sourceLocation: sourceLocation)
        crossing(evaluation, from: boundary, to: before, backend: backend, sourceLocation: sourceLocation)
        crossing(evaluation, from: boundary, to: after, backend: backend, sourceLocation: sourceLocation)
        #expect(early.result != late.result || early.checks != late.checks,
                "the fixture's result does not change at this boundary", sourceLocation: sourceLocation)
    }

    static func ssl(_ chain: [Certificate], anchors: [Certificate] = []) -> TrustEvaluation {
        TrustEvaluation(certificates: chain, policies: [.sslServer(host: "leaf.example")], anchors: anchors)
    }

    // MARK: validity windows

    @Test("the window ends at the leaf's notBefore and notAfter", arguments: BackendRegistry.standard.names)
    func leafWindow(backend: String) throws {
        let chain = try Self.certificates("rules-validity-leaf-at-notbefore/chain.pem")
        let evaluation = Self.ssl(chain, anchors: try Self.certificates("rules-validity-leaf-at-notbefore/root-rsa.pem"))
        Self.boundary(evaluation, at: chain[0].notBefore, backend: backend)
        Self.boundary(evaluation, at: chain[0].notAfter, backend: backend)
    }

    @Test("the window ends at a presented intermediate's notBefore and notAfter", arguments: BackendRegistry.standard.names)
    func intermediateWindow(backend: String) throws {
        let chain = try Self.certificates("rules-validity-intermediate-at-notbefore/chain.pem")
        let evaluation = Self.ssl(chain, anchors: try Self.certificates("rules-validity-intermediate-at-notbefore/root-rsa.pem"))
        Self.boundary(evaluation, at: chain[1].notBefore, backend: backend)
        Self.boundary(evaluation, at: chain[1].notAfter, backend: backend)
    }

    @Test("the window ends at a pool intermediate's notBefore and notAfter", arguments: BackendRegistry.standard.names)
    func poolWindow(backend: String) throws {
        let chain = try Self.certificates("rules-validity-intermediate-at-notbefore/chain.pem")
        var evaluation = Self.ssl([chain[0]], anchors: try Self.certificates("rules-validity-intermediate-at-notbefore/root-rsa.pem"))
        evaluation.additionalIntermediates = [chain[1]]
        Self.boundary(evaluation, at: chain[1].notBefore, backend: backend)
        Self.boundary(evaluation, at: chain[1].notAfter, backend: backend)
    }

    @Test("the window ends at the anchor's notBefore and notAfter", arguments: BackendRegistry.standard.names)
    func anchorWindow(backend: String) throws {
        let anchor = try Self.certificates("rules-validity-anchor-at-notbefore/root-short-rsa.pem")
        let evaluation = Self.ssl(try Self.certificates("rules-validity-anchor-at-notbefore/chain.pem"), anchors: anchor)
        Self.boundary(evaluation, at: anchor[0].notBefore, backend: backend)
        Self.boundary(evaluation, at: anchor[0].notAfter, backend: backend)
    }

    @Test("the window ends at an always-trusted certificate's notBefore and notAfter", arguments: BackendRegistry.standard.names)
    func alwaysTrustWindow(backend: String) throws {
        let root = try Self.certificates("rules-validity-anchor-at-notbefore/root-short-rsa.pem")
        var evaluation = Self.ssl(try Self.certificates("rules-validity-anchor-at-notbefore/chain.pem"))
        evaluation.trustSettings = TrustSettings(alwaysTrust: root)
        Self.boundary(evaluation, at: root[0].notBefore, backend: backend)
        Self.boundary(evaluation, at: root[0].notAfter, backend: backend)
    }

    @Test("a result with a CRL is not reused across the CRL's thisUpdate or nextUpdate", arguments: BackendRegistry.standard.names)
    func crlWindow(backend: String) throws {
        // Both CRLs list the leaf; the second one's dates (2030-07-01 .. 2030-09-01) are no certificate's dates.
        for (scenario, file) in [("rules-crl-stale", "int-revokes-leaf-stale"), ("rules-crl-not-yet-valid", "int-revokes-leaf-future")] {
            var evaluation = Self.ssl(
                try Self.certificates("\(scenario)/chain.pem"), anchors: try Self.certificates("\(scenario)/root-rsa.pem"))
            let crl = try Self.crl("\(scenario)/\(file).crl.pem")
            evaluation.crls = [crl]
            let nextUpdate = try #require(crl.nextUpdate)
            for boundary in [crl.thisUpdate.addingTimeInterval(-300), nextUpdate] {  // a CRL is used from five minutes before its thisUpdate
                Self.boundary(evaluation, at: boundary, backend: backend)
            }
        }
    }

    @Test("a result with an OCSP answer is not reused across the answer's first use (thisUpdate − 5 min) or nextUpdate",
          arguments: BackendRegistry.standard.names)
    func ocspWindow(backend: String) throws {
        let directory = Fixtures.root.appendingPathComponent("ocsp")
        func certificates(_ name: String) throws -> [Certificate] {
            try CertificateBundle.decode([UInt8](Data(contentsOf: directory.appendingPathComponent(name)))).certificates
        }
        let response = try OCSPResponse(derEncoded: [UInt8](Data(contentsOf: directory.appendingPathComponent("good.der"))))
        let single = try #require(response.basic?.responses.first)
        let evaluation = TrustEvaluation(
            certificates: try certificates("leaf-good.pem"), anchors: try certificates("ca.pem"), ocspResponses: [response])
        // An answer is used from five minutes before its thisUpdate (clock skew) to its nextUpdate.
        Self.boundary(evaluation, at: single.thisUpdate.addingTimeInterval(-300), backend: backend)
        Self.boundary(evaluation, at: try #require(single.nextUpdate), backend: backend)
    }

    @Test("inside one window the result is reused, at each side of a boundary")
    func reuseInsideAWindow() throws {
        let chain = try Self.certificates("rules-validity-anchor-at-notbefore/chain.pem")
        let anchor = try Self.certificates("rules-validity-anchor-at-notbefore/root-short-rsa.pem")
        let evaluator = TrustEvaluator(backend: ConcurrencyFixtures.backend("openssl"), configuration: .cached)
        var evaluation = Self.ssl(chain, anchors: anchor)
        for offset in [2.0, 3, 3_600] {
            evaluation.verifyDate = anchor[0].notBefore.addingTimeInterval(offset)
            #expect(evaluator.evaluate(evaluation).isTrusted)
        }
        #expect(evaluator.cacheStatistics.resultHits == 2)
    }

    // MARK: the cache key

    /// `base` then `variant` through one cached evaluator: `variant` must be a miss and give its own report.
    static func differentKey(_ base: TrustEvaluation, _ variant: TrustEvaluation, sourceLocation: SourceLocation = #_sourceLocation) {
        let cached = TrustEvaluator(backend: ConcurrencyFixtures.backend("openssl"), configuration: .cached)
        let reference = TrustEvaluator(backend: ConcurrencyFixtures.backend("openssl"), configuration: .uncached)
        let first = cached.evaluate(base)
        let second = cached.evaluate(variant)
        #expect(second == reference.evaluate(variant), sourceLocation: sourceLocation)
        #expect(first != second, "the two evaluations should differ", sourceLocation: sourceLocation)
        #expect(cached.cacheStatistics == .init(resultHits: 0, resultMisses: 2, resultEntries: 2), sourceLocation: sourceLocation)
    }

    func rsa() throws -> TrustEvaluation {
        var evaluation = Self.ssl(try Self.certificates("rules-pin-match-anchor/chain.pem"),
                                  anchors: try Self.certificates("rules-pin-match-anchor/root-rsa.pem"))
        evaluation.verifyDate = ConcurrencyFixtures.verifyDate
        return evaluation
    }

    @Test("pins are part of the key")
    func pinsKey() throws {
        var pinned = try rsa()
        pinned.pins = [try #require(SPKIPin("sha256/" + Data(repeating: 7, count: 32).base64EncodedString()))]
        Self.differentKey(try rsa(), pinned)
    }

    @Test("maxDepth is part of the key")
    func maxDepthKey() throws {
        var short = try rsa()
        short.maxDepth = 0
        Self.differentKey(try rsa(), short)
    }

    @Test("exceptions are part of the key")
    func exceptionsKey() throws {
        var wrongHost = try rsa()
        wrongHost.policies = [.sslServer(host: "other.example")]
        var excepted = wrongHost
        excepted.exceptions = TrustExceptions(leafSHA256: try Self.sha256(wrongHost.certificates[0]), checks: [.sslHostname])
        Self.differentKey(wrongHost, excepted)
    }

    @Test("the extra intermediates are part of the key")
    func poolKey() throws {
        let full = try rsa()
        var leafOnly = full
        leafOnly.certificates = [full.certificates[0]]
        var pooled = leafOnly
        pooled.additionalIntermediates = [full.certificates[1]]
        Self.differentKey(leafOnly, pooled)
    }

    @Test("always-trust settings are part of the key")
    func alwaysTrustKey() throws {
        var noAnchors = try rsa()
        noAnchors.anchors = []
        var alwaysTrusted = noAnchors
        alwaysTrusted.trustSettings = TrustSettings(alwaysTrust: try Self.certificates("rules-pin-match-anchor/root-rsa.pem"))
        Self.differentKey(noAnchors, alwaysTrusted)
    }

    @Test("the policy's profile is part of the key")
    func profileKey() throws {
        var apple = Self.ssl(try Self.certificates("rules-eku-leaf-absent-server-apple/chain.pem"),
                             anchors: try Self.certificates("rules-eku-leaf-absent-server-apple/root-rsa.pem"))
        apple.verifyDate = ConcurrencyFixtures.verifyDate
        var rfc = apple
        rfc.policies = [.sslServer(host: "leaf.example", profile: .rfc5280)]
        Self.differentKey(apple, rfc)
    }

    @Test("the presented certificates are part of the key")
    func certificatesKey() throws {
        var other = try rsa()
        other.certificates = try Self.certificates("rules-keysize-rsa2047-ssl-server/chain.pem")
        Self.differentKey(try rsa(), other)
    }

    // MARK: chain builder limits

    @Test("the chain builder stops at maxDepth certificates, anchor included")
    func builderDepth() throws {
        let chain = try Self.certificates("rules-depth-8-intermediates-maxdepth-8/chain.pem")
        let anchors = try Self.certificates("rules-depth-8-intermediates-maxdepth-8/depth-0.pem")
        #expect(chain.count == 9)
        for depth in [10, 11] {
            var builder = ChainBuilder(leaf: chain[0], pool: Array(chain.dropFirst()), anchors: anchors,
                                       date: ConcurrencyFixtures.verifyDate, limits: .init(maxDepth: depth))
            #expect(builder.next()?.certificates.count == 10, "maxDepth \(depth)")
        }
        for depth in [3, 9] {
            var builder = ChainBuilder(leaf: chain[0], pool: Array(chain.dropFirst()), anchors: anchors,
                                       date: ConcurrencyFixtures.verifyDate, limits: .init(maxDepth: depth))
            #expect(builder.next() == nil, "maxDepth \(depth)")
            #expect(builder.bestDeadEnd?.count == depth)
            #expect(!builder.limitReached)
        }
    }

    @Test("the chain builder hands out at most maxCandidates paths")
    func builderCandidates() throws {
        // Two anchored paths: via Int RSA from Root RSA, and via the same-key Int RSA from Root RSA with pathlen:0.
        let leaf = try Self.certificates("rules-pathlen-0-at-limit/chain.pem")
        let pool = try Self.certificates("rules-validity-leaf-at-notbefore/chain.pem")[1...] + leaf[1...]
        let anchors = try Self.certificates("rules-pathlen-0-at-limit/root-rsa.pem")
        var all = ChainBuilder(leaf: leaf[0], pool: Array(pool), anchors: anchors, date: ConcurrencyFixtures.verifyDate)
        var count = 0
        while all.next() != nil { count += 1 }
        #expect(count == 2)
        #expect(!all.limitReached)
        var one = ChainBuilder(leaf: leaf[0], pool: Array(pool), anchors: anchors, date: ConcurrencyFixtures.verifyDate,
                               limits: .init(maxCandidates: 1))
        #expect(one.next() != nil)
        #expect(one.next() == nil)
        #expect(one.limitReached)
    }

    // MARK: the audit mode

    @Test("the audit adds a LibraryVerdict for what the core did not find, and nothing it explains")
    func audit() throws {
        let evaluation = try rsa()
        func report(_ facts: [LibraryFact], _ evaluation: TrustEvaluation) -> TrustReport {
            TrustEvaluator(backend: ForwardingBackend.fixedOpinion(facts), configuration: .audit).evaluate(evaluation)
        }
        let unexplained = LibraryFact(.keyUsageNoCertSign, index: 1, words: "test")
        let added = report([unexplained], evaluation)
        #expect(added.result == .recoverableTrustFailure)
        #expect(added.checks.count == 3 && added.checks[1] == [.libraryVerdict])
        // Unknown library statuses fail closed, as LibraryVerdict (never Signature: the path is not discarded).
        let unknown = report([LibraryFact(.unknown, words: "test")], evaluation)
        #expect(unknown.checks == [[.libraryVerdict], [], []])
        // Explained by the core's own finding (the leaf is evaluated for another host): nothing added.
        var wrongHost = evaluation
        wrongHost.policies = [.sslServer(host: "other.example")]
        let expired = LibraryFact(.expired, index: 0, words: "test")
        #expect(report([expired], evaluation).checks == [[.libraryVerdict], [], []])
        let noIssuer = LibraryFact(.noIssuer, words: "test")
        #expect(report([noIssuer], wrongHost).checks == [[.sslHostname, .libraryVerdict], [], []])
        // Off by default: the same facts change nothing.
        let quiet = TrustEvaluator(backend: ForwardingBackend.fixedOpinion([unexplained, noIssuer])).evaluate(evaluation)
        #expect(quiet.result == .unspecified)
    }

    // MARK: exceptions and aggregation

    @Test("exceptions cover exactly a subset of recoverable failures of their own leaf")
    func exceptionsCover() throws {
        let leaf = try Self.sha256(try Self.certificates("rules-pin-match-anchor/chain.pem")[0])
        let other = try Self.sha256(try Self.certificates("rules-keysize-rsa2047-ssl-server/chain.pem")[0])
        let exceptions = TrustExceptions(leafSHA256: leaf, checks: [.sslHostname, .temporalValidity, .revocation, .usageConstraints])
        #expect(exceptions.covers(leafSHA256: leaf, failures: [.sslHostname]))
        #expect(exceptions.covers(leafSHA256: leaf, failures: [.sslHostname, .temporalValidity]))
        #expect(!exceptions.covers(leafSHA256: leaf, failures: [.sslHostname, .extendedKeyUsage]))
        #expect(!exceptions.covers(leafSHA256: leaf, failures: []))
        #expect(!exceptions.covers(leafSHA256: other, failures: [.sslHostname]))
        // Never fatal or deny, even when listed.
        #expect(!exceptions.covers(leafSHA256: leaf, failures: [.revocation]))
        #expect(!exceptions.covers(leafSHA256: leaf, failures: [.usageConstraints]))
        #expect(TrustAggregator.result(checks: [[.sslHostname]], leafSHA256: leaf, alwaysTrusted: false, exceptions: exceptions) == .proceed)
        #expect(TrustAggregator.result(checks: [[.sslHostname], [.revocation]], leafSHA256: leaf, alwaysTrusted: false, exceptions: exceptions) == .fatalTrustFailure)
        #expect(TrustAggregator.result(checks: [[.sslHostname], [.usageConstraints]], leafSHA256: leaf, alwaysTrusted: false, exceptions: exceptions) == .deny)
    }

    @Test("aggregation: the worst severity wins whatever the order and index")
    func severityOrder() {
        let sets: [[Set<TrustCheck>]] = [
            [[.weakKeySize], [.temporalValidity]], [[.temporalValidity], [.weakKeySize]],
            [[.usageConstraints, .weakSignature]], [[.sslHostname], [], [.revocation]],
        ]
        for checks in sets {
            #expect(TrustAggregator.result(checks: checks, leafSHA256: nil, alwaysTrusted: false, exceptions: nil) == .fatalTrustFailure)
        }
        #expect(TrustAggregator.result(checks: [[.sslHostname], [.usageConstraints]], leafSHA256: nil, alwaysTrusted: false, exceptions: nil) == .deny)
        #expect(TrustAggregator.result(checks: [[.usageConstraints], [.keySize]], leafSHA256: nil, alwaysTrusted: true, exceptions: nil) == .deny)
        // Same priority: lowest index; same index: TrustCheck.allCases order.
        func primary(_ checks: [Set<TrustCheck>]) -> String {
            TrustAggregator.primaryFailure(checks).map { "\($0.check.name)@\($0.index)" } ?? "-"
        }
        #expect(primary([[], [.validityPeriodMaximums], [.temporalValidity]]) == "ValidityPeriodMaximums@1")
        #expect(primary([[.validityPeriodMaximums, .temporalValidity]]) == "TemporalValidity@0")
        #expect(primary([[.sslHostname], [.revocation]]) == "Revocation@1")
        #expect(primary([[.temporalValidity], [.anchorTrusted]]) == "AnchorTrusted@1")
    }
}
