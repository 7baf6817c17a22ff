@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// Passing cases and boundary pairs that no scenario shows on its own, named in the `passes` and `boundary` columns of
/// Docs/Profiles.md as `unit test: RuleTriplesTests.<test>`. Each takes an existing scenario's material unchanged and
/// moves one thing a scenario fixes — the profile, the peer name, the verify time — across the rule's edge, then
/// evaluates both sides on every backend: the last passing value must not fail the rule, the first failing one must
/// fail it, by its rule id.
@Suite("Rule triples: boundaries of the rules on both backends")
struct RuleTriplesTests {
    static func scenario(_ name: String) throws -> ConformanceScenario {
        try #require(Fixtures.scenarios.first { $0.name == name }, "no scenario \(name)")
    }

    /// The scenario's evaluation, as `change` leaves it, reported by every backend of the registry.
    static func reports(
        _ scenario: ConformanceScenario, _ change: (inout TrustEvaluation) throws -> Void = { _ in }
    ) throws -> [(backend: String, report: TrustReport)] {
        var evaluation = try scenario.makeEvaluation()
        try change(&evaluation)
        let backends = BackendRegistry.standard.allBackends()
        #expect(backends.count >= 2, "both backends")
        return backends.map { ($0.name, TrustEvaluator(backend: $0).evaluate(evaluation)) }
    }

    /// The ids of every rule that failed anywhere in the report's chain.
    static func failedRules(_ report: TrustReport) -> Set<String> {
        Set(report.rules.indices.flatMap { report.failedRules(at: $0).map(\.id) })
    }

    static func with(_ scenario: ConformanceScenario, profile: TrustProfile? = nil, host: String? = nil) -> ConformanceScenario {
        var changed = scenario
        if let profile { changed.profile = profile.rawValue }
        if let host { changed.host = host }
        return changed
    }

    // MARK: key sizes

    /// webpki.rsa-modulus-2048: the rules-keysize leaves of 2048 and 2047 bits, evaluated under webpki (their
    /// scenarios run under apple, where the rule does not apply).
    @Test("webpki: an RSA modulus of 2048 bits passes, 2047 bits breaks the 2048-bit floor")
    func rsaModulusFloor() throws {
        for (backend, report) in try Self.reports(Self.with(try Self.scenario("rules-keysize-rsa2048-ssl-server"), profile: .webpki)) {
            let failed = Self.failedRules(report)
            #expect(!failed.contains("webpki.rsa-modulus-2048"), "\(backend): \(failed)")
            #expect(!failed.contains("webpki.rsa-modulus-multiple-of-8"), "\(backend): \(failed)")
            #expect(!report.allFailures.contains(.keySize), "\(backend): \(report.checks)")
        }
        for (backend, report) in try Self.reports(Self.with(try Self.scenario("rules-keysize-rsa2047-ssl-server"), profile: .webpki)) {
            let failed = Self.failedRules(report)
            #expect(failed.contains("webpki.rsa-modulus-2048"), "\(backend): \(failed)")
            // One rule per key: below the floor, the floor is the rule named (2047 is no multiple of 8 either).
            #expect(!failed.contains("webpki.rsa-modulus-multiple-of-8"), "\(backend): \(failed)")
            #expect(report.checks.first?.contains(.keySize) == true, "\(backend): \(report.checks)")
            #expect(report.result == .recoverableTrustFailure, "\(backend): \(report.result)")
        }
        // The same 2047-bit leaf under apple breaks only the SSL floor, not the Web PKI's rules.
        for (backend, report) in try Self.reports(try Self.scenario("rules-keysize-rsa2047-ssl-server")) {
            let failed = Self.failedRules(report)
            #expect(failed == ["certkit.tls-key-size"], "\(backend): \(failed)")
        }
    }

    // MARK: name syntax

    /// rfc5280.dns-name-syntax: a label of 63 characters is a host name, one of 64 is not. The leaf's SAN
    /// `*.example.com` (wildcard-match) covers both hosts, so only the syntax rule can tell them apart.
    @Test("rfc5280 and webpki: a 63-character label matches a wildcard, a 64-character one breaks the name syntax")
    func dnsLabelLength() throws {
        let base = try Self.scenario("wildcard-match")
        let last = String(repeating: "a", count: 63) + ".example.com"
        let first = String(repeating: "a", count: 64) + ".example.com"
        for profile in [TrustProfile.rfc5280, .webpki] {
            for (backend, report) in try Self.reports(Self.with(base, profile: profile, host: last)) {
                #expect(!report.allFailures.contains(.sslHostname), "\(profile) \(backend): \(report.checks)")
            }
            for (backend, report) in try Self.reports(Self.with(base, profile: profile, host: first)) {
                #expect(report.rules.first?[.sslHostname]?.map(\.id) == ["rfc5280.dns-name-syntax"],
                        "\(profile) \(backend): \(Self.failedRules(report))")
            }
        }
        // apple does not enforce the rule: trustd compares the labels, and the wildcard covers the long one.
        for (backend, report) in try Self.reports(Self.with(base, profile: .apple, host: first)) {
            #expect(!report.allFailures.contains(.sslHostname), "apple \(backend): \(report.checks)")
        }
    }

    // MARK: CRL windows

    /// certkit.crl-validation: a CRL is valid from five minutes before its thisUpdate (clock skew) to its nextUpdate,
    /// both included, to the second.
    @Test("a CRL validates from five minutes before its thisUpdate to its nextUpdate, not one second outside them")
    func crlWindowIsInclusive() throws {
        let base = try Self.scenario("crl-not-listing-leaf")
        let crl = try #require(try base.makeEvaluation().crls.first)
        let thisUpdate = crl.thisUpdate
        let nextUpdate = try #require(crl.nextUpdate)
        for (date, valid) in [(thisUpdate, true), (thisUpdate.addingTimeInterval(-300), true),
                              (thisUpdate.addingTimeInterval(-301), false),
                              (nextUpdate, true), (nextUpdate.addingTimeInterval(1), false)] {
            for (backend, report) in try Self.reports(base, { $0.verifyDate = date }) {
                let failed = Self.failedRules(report)
                #expect(failed.contains("certkit.crl-validation") == !valid, "\(date) \(backend): \(failed)")
                #expect(report.isTrusted == valid, "\(date) \(backend): \(report.result) \(report.checks)")
            }
        }
    }

    /// certkit.revocation: a CRL listing the leaf revokes it inside the CRL's window only; outside it the CRL is
    /// not used (and the missing valid CRL is certkit.crl-validation instead).
    @Test("a revoking CRL applies from five minutes before its thisUpdate to its nextUpdate, both included")
    func revocationFollowsTheCRLWindow() throws {
        let base = try Self.scenario("revoked-leaf")
        let crl = try #require(try base.makeEvaluation().crls.first)
        let nextUpdate = try #require(crl.nextUpdate)
        for (date, revoked) in [(crl.thisUpdate, true), (crl.thisUpdate.addingTimeInterval(-300), true),
                                (crl.thisUpdate.addingTimeInterval(-301), false),
                                (nextUpdate, true), (nextUpdate.addingTimeInterval(1), false)] {
            for (backend, report) in try Self.reports(base, { $0.verifyDate = date }) {
                let failed = Self.failedRules(report)
                #expect(failed.contains("certkit.revocation") == revoked, "\(date) \(backend): \(failed)")
                #expect(report.checks.first?.contains(.revocation) == revoked, "\(date) \(backend): \(report.checks)")
                #expect(report.result == (revoked ? .fatalTrustFailure : .recoverableTrustFailure), "\(date) \(backend)")
            }
        }
    }

    /// certkit.ocsp-validation: an OCSP answer holds from five minutes before its thisUpdate (clock skew) to its
    /// nextUpdate, both included, to the second (Tests/Fixtures/ocsp: a good response for leaf-good.pem signed by the issuer).
    @Test("an OCSP answer validates from five minutes before its thisUpdate to its nextUpdate, not one second outside them")
    func ocspWindowIsInclusive() throws {
        let directory = Fixtures.root.appendingPathComponent("ocsp")
        func certificates(_ name: String) throws -> [Certificate] {
            try CertificateBundle.decode([UInt8](Data(contentsOf: directory.appendingPathComponent(name)))).certificates
        }
        let response = try OCSPResponse(derEncoded: [UInt8](Data(contentsOf: directory.appendingPathComponent("good.der"))))
        let single = try #require(response.basic?.responses.first)
        let nextUpdate = try #require(single.nextUpdate)
        let leaf = try certificates("leaf-good.pem"), anchors = try certificates("ca.pem")
        for (date, valid) in [(single.thisUpdate, true), (single.thisUpdate.addingTimeInterval(-300), true),
                              (single.thisUpdate.addingTimeInterval(-301), false),
                              (nextUpdate, true), (nextUpdate.addingTimeInterval(1), false)] {
            for backend in BackendRegistry.standard.allBackends() {
                let report = TrustEvaluator(backend: backend).evaluate(TrustEvaluation(
                    certificates: leaf, anchors: anchors, verifyDate: date, ocspResponses: [response]))
                let failed = Self.failedRules(report)
                #expect(failed.contains("certkit.ocsp-validation") == !valid, "\(date) \(backend.name): \(failed)")
                #expect(report.isTrusted == valid, "\(date) \(backend.name): \(report.result) \(report.checks)")
            }
        }
    }

    // MARK: validity encoding

    /// webpki.validity-encoding: a date in GeneralizedTime is refused through 2049-12-31T23:59:59Z and allowed from
    /// 2050-01-01T00:00:00Z. The scenarios show it on an intermediate's notAfter (profiles-int-generalized-time-2050 /
    /// -2049); here it is shown on both of a leaf's dates, on the core alone: the GeneralizedTime leaf of profiles-leaf-generalized-time-2030 with its dates
    /// rewritten in place (same length, its signature no longer verifies, which the core's profile rules do not read).
    @Test("webpki: GeneralizedTime validity dates are refused before 2050 and allowed from 2050 (core alone)")
    func validityEncodingEdge() throws {
        let scenario = try Self.scenario("profiles-leaf-generalized-time-2030-webpki")
        let chain = try Fixtures.certificates(scenario.chain) + scenario.anchors.flatMap(Fixtures.certificates)
        func leaf(notBefore: String, notAfter: String) throws -> Certificate {
            var der = chain[0].derEncoded
            for (old, new) in [("20300101000000Z", notBefore), ("20310601000000Z", notAfter)] {
                let bytes = Array(old.utf8)
                let at = try #require(der.indices.first { der[$0...].starts(with: bytes) }, "no \(old) in the leaf")
                der.replaceSubrange(at..<at + bytes.count, with: Array(new.utf8))
            }
            return try Certificate(derEncoded: der)
        }
        func failedRules(_ certificate: Certificate, _ profile: TrustProfile) -> [String] {
            let findings = CorePolicy.findings(for: PathContext(
                path: CandidatePath(certificates: [certificate] + chain.dropFirst(), endsAtAnchor: true),
                policy: .sslServer(host: "leaf.example", profile: profile), date: certificate.notBefore))
            return findings.rules[0].values.flatMap { $0.map(\.id) }
        }
        let rule = "webpki.validity-encoding"
        #expect(failedRules(chain[0], .webpki).contains(rule), "the scenario's leaf: 2030 in GeneralizedTime")
        let from2050 = try leaf(notBefore: "20500101000000Z", notAfter: "20510101000000Z")
        #expect(from2050.notBefore == (try Fixtures.date("2050-01-01T00:00:00Z")))
        #expect(!failedRules(from2050, .webpki).contains(rule))
        let through2049 = try leaf(notBefore: "20491231235959Z", notAfter: "20510101000000Z")
        #expect(through2049.notBefore == (try Fixtures.date("2049-12-31T23:59:59Z")))
        #expect(failedRules(through2049, .webpki).contains(rule))
        for profile in [TrustProfile.apple, .rfc5280] {
            #expect(!failedRules(through2049, profile).contains(rule), "\(profile) does not enforce the rule")
        }
    }

    // MARK: key identifier linkage

    /// rfc5280.key-identifier-linkage: the chain builder never links a certificate to an issuer whose
    /// subjectKeyIdentifier differs from its authorityKeyIdentifier, so on both backends the mismatched leaf ends
    /// the path (MissingIntermediate); given that path directly, the core fails it with IdLinkage in every profile,
    /// and the control path (equal identifiers) passes.
    @Test("an authorityKeyIdentifier that differs from the issuer's subjectKeyIdentifier fails IdLinkage")
    func keyIdentifierLinkage() throws {
        func path(_ name: String) throws -> [Certificate] {
            let scenario = try Self.scenario(name)
            return try Fixtures.certificates(scenario.chain) + scenario.anchors.flatMap(Fixtures.certificates)
        }
        let mismatched = try path("profiles-aki-mismatch-rfc5280")
        let control = try path("profiles-control-rfc5280")
        #expect(mismatched.count == 3 && control.count == 3)
        let date = try Fixtures.date("2030-06-01T00:00:00Z")
        for profile in TrustProfile.allCases {
            func findings(_ certificates: [Certificate]) -> PathFindings {
                CorePolicy.findings(for: PathContext(
                    path: CandidatePath(certificates: certificates, endsAtAnchor: true),
                    policy: .sslServer(host: "leaf.example", profile: profile), date: date))
            }
            let failing = findings(mismatched)
            #expect(failing.checks[0].contains(.idLinkage), "\(profile): \(failing.checks)")
            #expect(failing.rules[0][.idLinkage]?.map(\.id) == ["rfc5280.key-identifier-linkage"], "\(profile)")
            #expect(!failing.checks[1].contains(.idLinkage) && !failing.checks[2].contains(.idLinkage), "\(profile)")
            let passing = findings(control)
            #expect(!passing.checks.contains { $0.contains(.idLinkage) }, "\(profile): \(passing.checks)")
        }
        for (backend, report) in try Self.reports(try Self.scenario("profiles-aki-mismatch-rfc5280")) {
            #expect(report.chain.count == 1, "\(backend): the leaf is linked to an issuer")
            #expect(report.checks.first == [.missingIntermediate], "\(backend): \(report.checks)")
        }
    }

    // MARK: validity-period maximums

    /// Where the scenario's anchors go: given by the app (the scenario as written), the system roots (the evaluator's
    /// system store, `anchorsOnly` false), or a trust setting (always trust).
    enum AnchorPlacement: CaseIterable { case app, system, userTrustSettings }

    /// The scenario's evaluation with its anchors placed as `placement` says, under `profile`, on every backend.
    static func reports(
        _ scenario: ConformanceScenario, placement: AnchorPlacement, profile: TrustProfile? = nil
    ) throws -> [(backend: String, report: TrustReport)] {
        var evaluation = try Self.with(scenario, profile: profile).makeEvaluation()
        let anchors = evaluation.anchors
        switch placement {
        case .app: break
        case .system:
            evaluation.anchors = []
            evaluation.anchorsOnly = false
        case .userTrustSettings:
            evaluation.anchors = []
            evaluation.trustSettings = TrustSettings(alwaysTrust: anchors)
        }
        let backends = BackendRegistry.standard.allBackends()
        #expect(backends.count >= 2, "both backends")
        return backends.map { backend in
            let evaluator = TrustEvaluator(backend: backend, configuration: .uncached, systemAnchors: { anchors })
            return (backend.name, evaluator.evaluate(evaluation))
        }
    }

    /// Evaluates each `rules-validity-<leaf>` scenario with its anchor placed every way, under `profile`: `rule`
    /// fails exactly for the leaves in `failing` under a system root, never under the app's anchor or a trust
    /// setting, and nothing else fails.
    static func expectSystemSchedule(
        _ rule: String, profile: TrustProfile, leaves: [String], failing: Set<String>
    ) throws {
        for leaf in leaves {
            let scenario = try Self.scenario("rules-validity-\(leaf)")
            for placement in AnchorPlacement.allCases {
                let fails = placement == .system && failing.contains(leaf)
                for (backend, report) in try Self.reports(scenario, placement: placement, profile: profile) {
                    let failed = Self.failedRules(report)
                    #expect(failed == (fails ? [rule] : []), "\(leaf) \(placement) \(profile) \(backend): \(failed)")
                    #expect(report.checks.first == (fails ? [.validityPeriodMaximums] : []),
                            "\(leaf) \(placement) \(backend): \(report.checks)")
                    #expect(report.isTrusted == !fails, "\(leaf) \(placement) \(backend): \(report.result)")
                }
            }
        }
    }

    /// apple.validity-system-roots: under a system root, a leaf issued one second before 2018-03-01 may exceed
    /// 825 days and 3600 s, one issued at it may not (the limit passes, one second more fails); one issued one second
    /// before 2020-09-01 may be valid 398 days and a second, one issued at it only 398 days. The same leaves under the
    /// app's anchor or a trust setting pass.
    @Test("apple: a system root's leaf is held to 825 days + 3600 s from 2018-03-01 and 398 days from 2020-09-01")
    func validityPeriodSystem() throws {
        try Self.expectSystemSchedule(
            "apple.validity-system-roots", profile: .apple,
            leaves: ["sys-before-2018", "sys-at-2018-over", "sys-at-2018-limit", "sys-before-2020", "sys-at-2020-over",
                     "sys-at-2020-limit"],
            failing: ["sys-at-2018-over", "sys-at-2020-over"])
        // The rule is the SSL server policy's: the client policy applies no maximum.
        let scenario = try Self.scenario("rules-validity-sys-at-2020-over")
        var client = scenario
        client.policy = "ssl-client"
        client.host = nil
        for (backend, report) in try Self.reports(client, placement: .system) {
            #expect(!report.allFailures.contains(.validityPeriodMaximums), "ssl-client \(backend): \(report.checks)")
        }
    }

    /// webpki.validity-period: the Baseline Requirements' schedule under a system root — 398 days (and not one
    /// second more) for a leaf issued before 2026-03-15; at each of 2026-03-15, 2027-03-15 and 2029-03-15 the new
    /// maximum (200, 100, 47 days) passes and one second more fails, while a leaf issued one second before the date
    /// with that longer lifetime still passes.
    @Test("webpki: a system root's leaf is held to 398, 200, 100 and 47 days by its issuance date")
    func validityPeriodWebPKI() throws {
        try Self.expectSystemSchedule(
            "webpki.validity-period", profile: .webpki,
            leaves: ["br-398-limit", "br-398-over", "br-before-2026", "br-at-2026-over", "br-at-2026-limit",
                     "br-before-2027", "br-at-2027-over", "br-at-2027-limit", "br-before-2029", "br-at-2029-over",
                     "br-at-2029-limit"],
            failing: ["br-398-over", "br-at-2026-over", "br-at-2027-over", "br-at-2029-over"])
        // Under apple the same leaves meet trustd's 398 days (Apple has not adopted the later rows): only the one
        // over 398 days fails.
        try Self.expectSystemSchedule(
            "apple.validity-system-roots", profile: .apple,
            leaves: ["br-398-limit", "br-398-over", "br-at-2026-over", "br-at-2029-over"], failing: ["br-398-over"])
    }

    /// apple.validity-825-days: the app-supplied schedule does not apply to a system root, nor the system schedule to
    /// the app's anchor: rules-leaf-rsa's 516-day leaf (issued 2030) passes under the app's anchor and fails 398
    /// days under a system root; a trust setting exempts it.
    @Test("apple: 516 days pass under the app's anchor, fail under a system root, pass under a trust setting")
    func validityPeriodByAnchorOrigin() throws {
        let scenario = try Self.scenario("valid-chain-rsa")
        for placement in AnchorPlacement.allCases {
            for (backend, report) in try Self.reports(scenario, placement: placement) {
                let failed = Self.failedRules(report)
                #expect(failed == (placement == .system ? ["apple.validity-system-roots"] : []),
                        "\(placement) \(backend): \(failed)")
            }
        }
    }
    /// apple.server-eku applies under an anchor the app supplied and one the trust settings make, alike.
    @Test("a leaf without serverAuth fails apple.server-eku under an app anchor and under a trust-settings anchor")
    func serverEKUUnderUserAnchors() throws {
        let scenario = try Self.scenario("rules-eku-leaf-absent-server-apple")
        for placement in [AnchorPlacement.app, .userTrustSettings] {
            for (backend, report) in try Self.reports(scenario, placement: placement) {
                #expect(Self.failedRules(report).contains("apple.server-eku"), "\(placement) \(backend): \(Self.failedRules(report))")
                #expect(!report.isTrusted, "\(placement) \(backend)")
            }
        }
    }

    /// A system root that the trust settings make an anchor for another policy only is still a system root under
    /// the SSL server policy: the system schedule applies; a setting for the SSL server policy exempts it. The
    /// evaluation asks both SSL policies at once, so the setting makes the root an anchor of the evaluation.
    @Test("a trust setting for another policy does not exempt a system root from the system-root maximums")
    func scopedSettingKeepsTheSystemOrigin() throws {
        let scenario = try Self.scenario("valid-chain-rsa")
        for (policy, exempt) in [(TrustSettings.Policy.sslClient, false), (.sslServer, true)] {
            var evaluation = try scenario.makeEvaluation()
            evaluation.policies.append(.ssl(server: false, name: nil, profile: .apple))
            let anchors = evaluation.anchors
            evaluation.anchors = []
            evaluation.anchorsOnly = false
            evaluation.trustSettings = TrustSettings(certificateSettings: anchors.map {
                CertificateTrustSettings(certificate: $0, constraints: [.init(result: .trustRoot, policy: policy)])
            })
            for backend in BackendRegistry.standard.allBackends() {
                let evaluator = TrustEvaluator(backend: backend, configuration: .uncached, systemAnchors: { anchors })
                let report = evaluator.evaluate(evaluation)
                let failed = Self.failedRules(report)
                // (The client policy also fails certkit.eku-purpose: the leaf is for servers.)
                #expect(failed.contains("apple.validity-system-roots") == !exempt, "\(policy) \(backend.name): \(failed)")
            }
        }
    }
}
