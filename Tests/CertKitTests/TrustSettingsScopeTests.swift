import CertKit
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

/// Every kind of trust setting and its scope, on both backends, over the conformance fixtures
/// (`valid-chain-rsa`: leaf.example ← Int RSA ← Root RSA; `expired-leaf-rsa`: the same with an expired leaf).
@Suite("trust settings: results, scopes, allowed errors")
struct TrustSettingsScopeTests {
    static let backends = ["openssl", "gnutls"]
    static let date = Date(timeIntervalSince1970: 1_906_502_400)  // 2030-06-01, the fixtures' verify date

    typealias Constraint = TrustSettings.UsageConstraint

    static func evaluator(_ name: String) -> TrustEvaluator {
        TrustEvaluator(backend: name == "openssl" ? OpenSSLBackend() : GnuTLSBackend())
    }

    struct PKI {
        let chain: [Certificate]
        let leaf: Certificate
        let intermediate: Certificate
        let root: Certificate

        init(_ scenario: String = "valid-chain-rsa") throws {
            chain = try Fixtures.certificates("\(scenario)/chain.pem")
            leaf = chain[0]
            intermediate = chain[1]
            root = try Fixtures.certificates("\(scenario)/root-rsa.pem")[0]
        }
    }

    /// Evaluates `pki`'s chain under `policies` with `settings` for the certificates and the given anchors.
    static func evaluate(
        _ backend: String, _ pki: PKI, policies: [TrustPolicy] = [.sslServer(host: "leaf.example")],
        anchors: [Certificate] = [], settings: [(Certificate, [Constraint])]
    ) -> TrustReport {
        let evaluation = TrustEvaluation(
            certificates: pki.chain, policies: policies, anchors: anchors, anchorsOnly: true, verifyDate: date,
            trustSettings: TrustSettings(certificateSettings: settings.map {
                CertificateTrustSettings(certificate: $0.0, constraints: $0.1)
            }))
        return evaluator(backend).evaluate(evaluation)
    }

    @Test("trustRoot on the root, no anchors: proceed", arguments: backends)
    func trustRoot(backend: String) throws {
        let pki = try PKI()
        let report = Self.evaluate(backend, pki, settings: [(pki.root, [Constraint(result: .trustRoot)])])
        #expect(report.result == .proceed, "\(report.error.map(String.init(describing:)) ?? "")")
        #expect(report.chain == [pki.leaf, pki.intermediate, pki.root])
        // The same root without a setting is not trusted at all.
        #expect(Self.evaluate(backend, pki, settings: []).result == .recoverableTrustFailure)
    }

    @Test("trustAsRoot on the intermediate: proceed, the path ends there", arguments: backends)
    func trustAsRoot(backend: String) throws {
        let pki = try PKI()
        let report = Self.evaluate(backend, pki, settings: [(pki.intermediate, [Constraint(result: .trustAsRoot)])])
        #expect(report.result == .proceed)
        #expect(report.chain == [pki.leaf, pki.intermediate])
    }

    @Test("trustRoot on a certificate that is not self-signed, trustAsRoot on a root: ignored", arguments: backends)
    func mismatchedAnchorResultsAreIgnored(backend: String) throws {
        let pki = try PKI()
        let wrongOnIntermediate = Self.evaluate(
            backend, pki, settings: [(pki.intermediate, [Constraint(result: .trustRoot)])])
        #expect(wrongOnIntermediate.result == .recoverableTrustFailure)
        let wrongOnRoot = Self.evaluate(backend, pki, settings: [(pki.root, [Constraint(result: .trustAsRoot)])])
        #expect(wrongOnRoot.result == .recoverableTrustFailure)
        #expect(wrongOnRoot.error?.check == .anchorTrusted)
        // Ignored entirely: it neither makes a passing path proceed nor hides a later deny.
        let anchored = Self.evaluate(
            backend, pki, anchors: [pki.root], settings: [(pki.intermediate, [Constraint(result: .trustRoot)])])
        #expect(anchored.result == .unspecified)
        let thenDeny = Self.evaluate(
            backend, pki, anchors: [pki.root],
            settings: [(pki.intermediate, [Constraint(result: .trustRoot), Constraint(result: .deny)])])
        #expect(thenDeny.result == .deny)
        #expect(Constraint(result: .trustRoot).problem(for: pki.intermediate) != nil)
        #expect(Constraint(result: .trustAsRoot).problem(for: pki.root) != nil)
    }

    @Test("deny on the intermediate, the root an anchor: deny", arguments: backends)
    func deny(backend: String) throws {
        let pki = try PKI()
        let report = Self.evaluate(
            backend, pki, anchors: [pki.root], settings: [(pki.intermediate, [Constraint(result: .deny)])])
        #expect(report.result == .deny)
        #expect(report.error?.check == .usageConstraints)
        #expect(report.error?.certificateIndex == 1)
        // deny wins over trustRoot on the same path, and over the trustRoot of the same certificate's later setting.
        let both = Self.evaluate(backend, pki, settings: [
            (pki.root, [Constraint(result: .deny), Constraint(result: .trustRoot)]),
        ])
        #expect(both.result != .proceed && both.result != .unspecified)
    }

    @Test("a setting limited to the policy and host evaluated applies", arguments: backends)
    func scopedSettingApplies(backend: String) throws {
        let pki = try PKI()
        let sslHost = Self.evaluate(backend, pki, settings: [
            (pki.root, [Constraint(result: .trustRoot, policy: .sslServer, host: "LEAF.example.")]),
        ])
        #expect(sslHost.result == .proceed)
        let basic = Self.evaluate(
            backend, pki, policies: [.basicX509], settings: [(pki.root, [Constraint(result: .trustRoot, policy: .basic)])])
        #expect(basic.result == .proceed)
    }

    @Test("a setting for another host or policy does not apply", arguments: backends)
    func scopedSettingDoesNotApplyElsewhere(backend: String) throws {
        let pki = try PKI()
        for constraint in [
            Constraint(result: .trustRoot, policy: .sslServer, host: "other.example"),
            Constraint(result: .trustRoot, policy: .sslClient),
            Constraint(result: .trustRoot, policy: .basic),
        ] {
            let report = Self.evaluate(backend, pki, settings: [(pki.root, [constraint])])
            #expect(report.result == .recoverableTrustFailure, "\(constraint.summary)")
            // The root is found (the certificates with settings are issuers too) but is not an anchor here.
            #expect(report.error?.check == .anchorTrusted, "\(constraint.summary)")
            #expect(report.chain.last == pki.root, "\(constraint.summary)")
        }
        // A host-limited deny for another host leaves the chain trusted (unspecified, through the anchor).
        let otherHostDeny = Self.evaluate(
            backend, pki, anchors: [pki.root],
            settings: [(pki.intermediate, [Constraint(result: .deny, policy: .sslServer, host: "other.example")])])
        #expect(otherHostDeny.result == .unspecified)
        let basicDeny = Self.evaluate(
            backend, pki, anchors: [pki.root], settings: [(pki.intermediate, [Constraint(result: .deny, policy: .basic)])])
        #expect(basicDeny.result == .unspecified)
        let sslDenyUnderBasic = Self.evaluate(
            backend, pki, policies: [.basicX509], anchors: [pki.root],
            settings: [(pki.intermediate, [Constraint(result: .deny, policy: .sslServer)])])
        #expect(sslDenyUnderBasic.result == .unspecified)
    }

    @Test("several settings: the first that applies and decides wins", arguments: backends)
    func firstDecidingSettingWins(backend: String) throws {
        let pki = try PKI()
        let settings: [(Certificate, [Constraint])] = [(pki.root, [
            Constraint(result: .unspecified, allowedErrors: [.temporalValidity]),
            Constraint(result: .deny, policy: .sslServer, host: "leaf.example"),
            Constraint(result: .trustRoot),
        ])]
        #expect(Self.evaluate(backend, pki, settings: settings).result == .deny)
        #expect(Self.evaluate(backend, pki, policies: [.basicX509], settings: settings).result == .proceed)
    }

    @Test("one evaluation, two policies: a setting for one of them does not anchor the other", arguments: backends)
    func severalPolicies(backend: String) throws {
        let pki = try PKI()
        let report = Self.evaluate(
            backend, pki, policies: [.sslServer(host: "leaf.example"), .basicX509],
            settings: [(pki.root, [Constraint(result: .trustRoot, policy: .basic)])])
        #expect(report.result == .recoverableTrustFailure)
        #expect(report.policyResults.map(\.result) == [.recoverableTrustFailure, .proceed])
    }

    @Test("allowed errors: accepted on that certificate only, under the scope given", arguments: backends)
    func allowedErrors(backend: String) throws {
        let expired = try PKI("expired-leaf-rsa")
        let allowExpiry = Constraint(result: .unspecified, allowedErrors: [.temporalValidity])
        // Without a setting the expired leaf fails; allowing TemporalValidity on the leaf accepts it.
        #expect(Self.evaluate(backend, expired, anchors: [expired.root], settings: []).result == .recoverableTrustFailure)
        let accepted = Self.evaluate(backend, expired, anchors: [expired.root], settings: [(expired.leaf, [allowExpiry])])
        #expect(accepted.result == .unspecified)
        #expect(accepted.checks.allSatisfy { $0.isEmpty })
        // With the root trusted by a setting as well, the result is proceed.
        let trusted = Self.evaluate(backend, expired, settings: [
            (expired.leaf, [allowExpiry]), (expired.root, [Constraint(result: .trustRoot)]),
        ])
        #expect(trusted.result == .proceed)
        // Allowed on another certificate, or for another host, it does not apply.
        #expect(Self.evaluate(backend, expired, anchors: [expired.root], settings: [(expired.intermediate, [allowExpiry])])
            .result == .recoverableTrustFailure)
        let otherHost = Constraint(
            result: .unspecified, policy: .sslServer, host: "other.example", allowedErrors: [.temporalValidity])
        #expect(Self.evaluate(backend, expired, anchors: [expired.root], settings: [(expired.leaf, [otherHost])])
            .result == .recoverableTrustFailure)
        // A wrong host is accepted only when SSLHostname is allowed.
        let pki = try PKI()
        let wrongHost: [TrustPolicy] = [.sslServer(host: "wrong.example")]
        #expect(Self.evaluate(backend, pki, policies: wrongHost, anchors: [pki.root], settings: [(pki.leaf, [allowExpiry])])
            .result == .recoverableTrustFailure)
        #expect(Self.evaluate(
            backend, pki, policies: wrongHost, anchors: [pki.root],
            settings: [(pki.leaf, [Constraint(result: .unspecified, allowedErrors: [.sslHostname])])]).result == .unspecified)
    }

    @Test("an error allowed under one policy of the evaluation stays a failure under the other, in either order",
          arguments: backends)
    func allowedErrorsPerPolicy(backend: String) throws {
        let expired = try PKI("expired-leaf-rsa")
        let sslOnly = Constraint(result: .unspecified, policy: .sslServer, allowedErrors: [.temporalValidity])
        let ssl = TrustPolicy.sslServer(host: "leaf.example")
        for policies in [[ssl, .basicX509], [.basicX509, ssl]] {
            let report = Self.evaluate(
                backend, expired, policies: policies, anchors: [expired.root], settings: [(expired.leaf, [sslOnly])])
            let byPolicy = Dictionary(uniqueKeysWithValues: report.policyResults.map { ($0.policy, $0) })
            #expect(byPolicy[ssl]?.result == .unspecified, "\(policies): the SSL policy allows the expiry")
            #expect(byPolicy[.basicX509]?.result == .recoverableTrustFailure, "\(policies): basic X.509 does not")
            #expect(byPolicy[.basicX509]?.checks.first?.contains(.temporalValidity) == true)
            #expect(report.result == .recoverableTrustFailure, "\(policies): the overall verdict sees the failure")
        }
    }

    @Test("allowed errors never cover Signature, revocation or deny")
    func allowedErrorsAreBounded() throws {
        let pki = try PKI()
        #expect(Constraint(result: .unspecified, allowedErrors: [.signature]).problem(for: pki.leaf) != nil)
        #expect(Constraint(result: .unspecified, allowedErrors: [.revocation]).problem(for: pki.leaf) != nil)
        #expect(Constraint(result: .unspecified, allowedErrors: [.usageConstraints]).problem(for: pki.leaf) != nil)
        #expect(Constraint(result: .deny, host: "a.example").problem(for: pki.leaf) != nil)
        // Even given to an evaluation, a deny stays a deny, on the certificate itself or another.
        for settings: [(Certificate, [Constraint])] in [
            [(pki.intermediate, [Constraint(result: .deny)]),
             (pki.leaf, [Constraint(result: .unspecified, allowedErrors: [.usageConstraints])])],
            [(pki.intermediate, [Constraint(result: .deny), Constraint(result: .unspecified, allowedErrors: [.usageConstraints])])],
        ] {
            #expect(Self.evaluate("openssl", pki, anchors: [pki.root], settings: settings).result == .deny)
        }
    }

    @Test("always-trust and distrust are unrestricted trustRoot/trustAsRoot and deny")
    func shorthands() throws {
        let pki = try PKI()
        let evaluator = Self.evaluator("openssl")
        var evaluation = TrustEvaluation(
            certificates: pki.chain, policies: [.sslServer(host: "leaf.example")], verifyDate: Self.date,
            trustSettings: TrustSettings(alwaysTrust: [pki.intermediate]))
        evaluation.anchorsOnly = true
        #expect(evaluator.evaluate(evaluation).result == .proceed)
        evaluation.trustSettings = TrustSettings(
            alwaysTrust: [pki.root], distrust: [pki.root])
        #expect(evaluator.evaluate(evaluation).result == .deny)
        evaluation.trustSettings = TrustSettings(
            distrust: [pki.root],
            certificateSettings: [CertificateTrustSettings(certificate: pki.root, constraints: [Constraint(result: .trustRoot)])])
        #expect(evaluator.evaluate(evaluation).result == .deny, "distrust comes first")
    }
}
