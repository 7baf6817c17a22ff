@testable import CertKit
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

/// RFC 5280 §6.1 certificate-policy processing over the policy graph of RFC 9618 (`PolicyProcessing`,
/// `PolicyGraph`), on abstract paths (the anchor's certificate first, the leaf last), and its bound.
@Suite("Policy: RFC 5280 §6.1 processing over the policy graph")
struct PolicyGraphTests {
    static let any = PolicyGraph.anyPolicy
    static let a = "1.3.6.1.4.1.55555.1"
    static let b = "1.3.6.1.4.1.55555.2"
    static let c = "1.3.6.1.4.1.55555.3"

    static func ca(
        _ policies: [String], map: [(String, String)] = [], require: Int? = nil, inhibitMapping: Int? = nil,
        inhibitAny: Int? = nil, selfIssued: Bool = false
    ) -> PolicyCertificate {
        PolicyCertificate(
            policies: policies, mappings: map.map { PolicyMapping(issuerDomainPolicy: $0.0, subjectDomainPolicy: $0.1) },
            requireExplicitPolicy: require, inhibitPolicyMapping: inhibitMapping, inhibitAnyPolicy: inhibitAny,
            isSelfIssued: selfIssued)
    }

    static func run(
        _ path: [PolicyCertificate], options: PolicyProcessing.Options = .init(), maxNodes: Int = 10_000
    ) -> PolicyProcessing.Result {
        PolicyProcessing.process(path, options: options, maxNodes: maxNodes)
    }

    @Test func withoutARequirementEveryPathIsValid() {
        let path = [Self.ca([Self.a]), Self.ca([])]
        #expect(!PolicyProcessing.canFail(path))
        #expect(Self.run(path).outcome == .valid(explicitPolicy: 1))
        #expect(PolicyProcessing.canFail(path, options: .init(initialExplicitPolicy: true)))
    }

    @Test func explicitPolicyNeedsAPolicyTheCAsAllow() {
        let ok = Self.run([Self.ca([Self.a], require: 0), Self.ca([Self.a, Self.b])])
        #expect(ok.outcome == .valid(explicitPolicy: 0))
        #expect(ok.graph.validPolicies == [Self.a])
        #expect(Self.run([Self.ca([Self.a], require: 0), Self.ca([Self.b])]).outcome == .noValidPolicy(position: 1))
        #expect(Self.run([Self.ca([Self.a], require: 0), Self.ca([])]).outcome == .noValidPolicy(position: 1))
        // requireExplicitPolicy 1: the certificate below the CA may go without; the one after it may not.
        let skip = [Self.ca([Self.a], require: 1), Self.ca([]), Self.ca([])]
        #expect(Self.run(skip).outcome == .noValidPolicy(position: 2))
        // A leaf's own requireExplicitPolicy 0 (§6.1.5(b)).
        #expect(Self.run([Self.ca([Self.a]), Self.ca([Self.a], require: 0)]).outcome == .valid(explicitPolicy: 0))
        #expect(Self.run([Self.ca([Self.a]), Self.ca([Self.b], require: 0)]).outcome == .noValidPolicy(position: 1))
        #expect(Self.run([Self.ca([Self.a]), Self.ca([Self.b], require: 1)]).outcome == .valid(explicitPolicy: 1))
    }

    @Test func aMappingIsHonoured() {
        let mapped = Self.run([Self.ca([Self.a], map: [(Self.a, Self.b)], require: 0), Self.ca([Self.b])])
        #expect(mapped.outcome == .valid(explicitPolicy: 0))
        #expect(mapped.graph.validPolicies == [Self.b])
        #expect(mapped.graph.levels[1].node(Self.a)?.expected == [Self.b])
        // Mapped away: the issuer's own policy no longer matches below.
        #expect(Self.run([Self.ca([Self.a], map: [(Self.a, Self.b)], require: 0), Self.ca([Self.a])]).outcome
            == .noValidPolicy(position: 1))
        // One issuer policy mapped to two subject policies.
        let both = Self.run([Self.ca([Self.a], map: [(Self.a, Self.b), (Self.a, Self.c)], require: 0), Self.ca([Self.c])])
        #expect(both.outcome == .valid(explicitPolicy: 0))
        // A mapping of a policy the CA does not assert, under its anyPolicy (§6.1.4(b)(1), second case).
        let underAny = Self.run([Self.ca([Self.any], map: [(Self.a, Self.b)], require: 0), Self.ca([Self.b])])
        #expect(underAny.outcome == .valid(explicitPolicy: 0))
        #expect(underAny.graph.levels[1].node(Self.a)?.parents == [0])
    }

    @Test func inhibitPolicyMappingDeletesTheMappedNodes() {
        // inhibitPolicyMapping 0 on the first CA: the mapping of the second is not applied, its node is deleted
        // and the graph is NULL for the leaf.
        let path = [
            Self.ca([Self.a], require: 0, inhibitMapping: 0), Self.ca([Self.a], map: [(Self.a, Self.b)]), Self.ca([Self.b]),
        ]
        #expect(Self.run(path).outcome == .noValidPolicy(position: 2))
        // inhibitPolicyMapping 1: the next CA may still map.
        var allowed = path
        allowed[0].inhibitPolicyMapping = 1
        #expect(Self.run(allowed).outcome == .valid(explicitPolicy: 0))
        #expect(Self.run(path, options: .init(initialPolicyMappingInhibit: true)).outcome == .noValidPolicy(position: 2))
    }

    @Test func anyPolicyUnlessInhibited() {
        let path = [Self.ca([Self.any], require: 0), Self.ca([Self.any])]
        let valid = Self.run(path)
        #expect(valid.outcome == .valid(explicitPolicy: 0))
        #expect(valid.graph.validPolicies == [Self.any])
        #expect(Self.run([Self.ca([Self.any], require: 0), Self.ca([Self.a])]).graph.validPolicies == [Self.a])
        // inhibitAnyPolicy 0 in the CA: the leaf's anyPolicy no longer stands for anything.
        #expect(Self.run([Self.ca([Self.any], require: 0, inhibitAny: 0), Self.ca([Self.any])]).outcome
            == .noValidPolicy(position: 1))
        // inhibitAnyPolicy 1: one more certificate may use it.
        #expect(Self.run([Self.ca([Self.any], require: 0, inhibitAny: 1), Self.ca([Self.any])]).outcome
            == .valid(explicitPolicy: 0))
        #expect(Self.run(path, options: .init(initialAnyPolicyInhibit: true)).outcome == .noValidPolicy(position: 1))
        #expect(Self.run(path, options: .init(initialExplicitPolicy: true, initialAnyPolicyInhibit: true)).outcome
            == .noValidPolicy(position: 0))
    }

    @Test func selfIssuedCertificatesAreNotCounted() {
        // requireExplicitPolicy 2, then a self-issued CA without policies: it does not use up a certificate.
        let selfIssued = [Self.ca([Self.a], require: 2), Self.ca([], selfIssued: true), Self.ca([])]
        #expect(Self.run(selfIssued).outcome == .valid(explicitPolicy: 1))
        var counted = selfIssued
        counted[1].isSelfIssued = false
        #expect(Self.run(counted).outcome == .noValidPolicy(position: 2))
        // A self-issued CA (not the last) may assert anyPolicy even where inhibitAnyPolicy has run out.
        let inhibited = [Self.ca([Self.any], require: 0, inhibitAny: 0), Self.ca([Self.any], selfIssued: true), Self.ca([Self.a])]
        #expect(Self.run(inhibited).outcome == .valid(explicitPolicy: 0))
        var notSelfIssued = inhibited
        notSelfIssued[1].isSelfIssued = false
        #expect(Self.run(notSelfIssued).outcome == .noValidPolicy(position: 1))
    }

    @Test func mappingsNamingAnyPolicyAreLeftOut() {
        let path = [Self.ca([Self.a], map: [(Self.a, Self.any), (Self.any, Self.b)], require: 0), Self.ca([Self.b])]
        #expect(Self.run(path).outcome == .noValidPolicy(position: 1))
    }

    @Test func pruningRemovesChildlessNodes() {
        let graph = Self.run([Self.ca([Self.a, Self.b], require: 0), Self.ca([Self.b])]).graph
        #expect(graph.levels[1].policies == [Self.a, Self.b])
        #expect(graph.pruned().levels[1].policies == [Self.b])
        #expect(graph.pruned().levels[0].policies == [Self.any])
    }

    /// The exponential case of RFC 5280's tree (CVE-2023-0464): every CA maps each of k policies to all k. The
    /// tree would have k^depth leaves; the graph has k nodes per depth.
    @Test func theGraphStaysLinear() {
        let k = 40
        let policies = (0..<k).map { "1.3.6.1.4.1.55555.9.\($0)" }
        let everyToEvery = policies.flatMap { from in policies.map { (from, $0) } }
        var path = (0..<8).map { _ in Self.ca(policies, map: everyToEvery) }
        path[0].requireExplicitPolicy = 0
        path.append(Self.ca([policies[0]]))
        let clock = ContinuousClock()
        var result: PolicyProcessing.Result?
        let elapsed = clock.measure { result = Self.run(path) }
        #expect(result?.outcome == .valid(explicitPolicy: 0))
        #expect((result?.graph.nodeCount ?? .max) <= 1 + 8 * k + 1)
        #expect(elapsed < .seconds(1))
    }

    /// One issuer policy mapped to many subject policies, each pair written twice: linear, not quadratic.
    @Test func manyMappingsStayLinear() {
        let subjects = (0..<20_000).map { "1.3.6.1.4.1.55555.7.\($0)" }
        let pairs = subjects.map { (Self.a, $0) }
        let path = [Self.ca([Self.a], map: pairs + pairs, require: 0), Self.ca([subjects.last!])]
        let clock = ContinuousClock()
        var result: PolicyProcessing.Result?
        let elapsed = clock.measure { result = Self.run(path) }
        #expect(result?.outcome == .valid(explicitPolicy: 0))
        #expect(result?.graph.levels[1].node(Self.a)?.expected.count == subjects.count)
        #expect(result?.graph.nodeCount == 3)
        #expect(elapsed < .seconds(2))
    }

    @Test func theBoundFailsClosed() {
        let policies = (0..<100).map { "1.3.6.1.4.1.55555.8.\($0)" }
        let path = [Self.ca(policies, require: 0), Self.ca([Self.any]), Self.ca(policies)]
        #expect(Self.run(path, maxNodes: 301).outcome == .valid(explicitPolicy: 0))
        #expect(Self.run(path, maxNodes: 300).outcome == .graphTooLarge(position: 2))
        #expect(Self.run(path, maxNodes: 100).outcome == .graphTooLarge(position: 0))
    }

    /// Through an evaluator: a graph over `Limits.maxPolicyGraphNodes` is a fatal ResourceLimit naming the bound.
    @Test func anEvaluationOverTheBoundIsAResourceLimit() throws {
        let scenario = try #require(Fixtures.scenarios.first { $0.name == "policies-mapping-honoured-apple" })
        let evaluation = try scenario.makeEvaluation()
        var limits = Limits.default
        #expect(TrustEvaluator(backend: OpenSSLBackend(), limits: limits).evaluate(evaluation).isTrusted)
        limits.maxPolicyGraphNodes = 2
        let report = TrustEvaluator(backend: OpenSSLBackend(), limits: limits).evaluate(evaluation)
        #expect(report.result == .fatalTrustFailure)
        #expect(report.error?.check == .resourceLimit)
        #expect(report.error?.rule == TrustRules.resourceLimit)
        #expect(report.error?.message.contains("Limits.maxPolicyGraphNodes") == true)
    }
}
