@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// `certkit.distrust-after`: a trust setting that distrusts a root or an intermediate for leaves issued after a date
/// (``TrustSettings/UsageConstraint/distrustAfter``). The material is `valid-chain-rsa` (leaf.example, issued
/// 2030-01-01T00:00:00Z ← Int RSA ← Root RSA), verified at 2030-06-01 on every backend; the date moves across the
/// leaf's notBefore: the leaf issued one second before the date and at it passes, one second after it fails. The
/// profile is rfc5280, whose rules the chain meets under a system root too (apple would hold its 516-day leaf to
/// trustd's 398 days there).
@Suite("distrust-after trust settings on both backends")
struct DistrustAfterTests {
    static let scenario = "valid-chain-rsa"

    struct Material {
        var chain: [Certificate]
        var root: Certificate
        var leaf: Certificate { chain[0] }
        var intermediate: Certificate { chain[1] }
    }

    static func material() throws -> Material {
        Material(
            chain: try Fixtures.certificates("\(scenario)/chain.pem"),
            root: try Fixtures.certificates("\(scenario)/root-rsa.pem")[0])
    }

    enum Where: CaseIterable { case appAnchor, storeAnchor, intermediate, systemRoot }

    /// The chain evaluated on every backend with a distrust-after `date` set on the root or the intermediate, the
    /// root trusted as `place` says: given by the app (setting `unspecified` on it), made an anchor by the setting
    /// itself (`trustRoot`), an app anchor with the setting on the intermediate, or a system root (`unspecified`).
    static func reports(_ place: Where, date: Date, policy: TrustSettings.Policy? = nil) throws
        -> [(backend: String, report: TrustReport)]
    {
        let material = try material()
        var evaluation = TrustEvaluation(
            certificates: material.chain, policies: [.sslServer(host: "leaf.example", profile: .rfc5280)], anchors: [],
            verifyDate: try Fixtures.date("2030-06-01T00:00:00Z"))
        func setting(_ certificate: Certificate, _ result: TrustSettings.Result) -> TrustSettings {
            TrustSettings(certificateSettings: [CertificateTrustSettings(
                certificate: certificate,
                constraints: [.init(result: result, policy: policy, distrustAfter: date)])])
        }
        switch place {
        case .appAnchor:
            evaluation.anchors = [material.root]
            evaluation.trustSettings = setting(material.root, .unspecified)
        case .storeAnchor:
            evaluation.anchorsOnly = true
            evaluation.trustSettings = setting(material.root, .trustRoot)
        case .intermediate:
            evaluation.anchors = [material.root]
            evaluation.trustSettings = setting(material.intermediate, .unspecified)
        case .systemRoot:
            evaluation.anchorsOnly = false
            evaluation.trustSettings = setting(material.root, .unspecified)
        }
        let root = material.root
        return BackendRegistry.standard.allBackends().map { backend in
            let evaluator = TrustEvaluator(backend: backend, configuration: .uncached, systemAnchors: { [root] })
            return (backend.name, evaluator.evaluate(evaluation))
        }
    }

    @Test("a leaf issued one second before the date or at it passes, one second after it fails, at the constrained certificate",
          arguments: Where.allCases)
    func boundary(_ place: Where) throws {
        let notBefore = try Self.material().leaf.notBefore
        #expect(notBefore == (try Fixtures.date("2030-01-01T00:00:00Z")))
        let index = place == .intermediate ? 1 : 2
        for (date, distrusted) in [(notBefore.addingTimeInterval(1), false), (notBefore, false),
                                   (notBefore.addingTimeInterval(-1), true)] {
            let reports = try Self.reports(place, date: date)
            #expect(reports.count >= 2, "both backends")
            for (backend, report) in reports {
                let label = "\(place) \(ISO8601Text.timestamp(date)) \(backend)"
                let rules = report.rules.indices.flatMap { report.failedRules(at: $0).map(\.id) }
                #expect(rules == (distrusted ? ["certkit.distrust-after"] : []), "\(label): \(rules)")
                #expect(report.checks.count == 3, "\(label): \(report.checks)")
                #expect(report.checks[index] == (distrusted ? [.anchorTrusted] : []), "\(label): \(report.checks)")
                let passing: TrustResultType = place == .storeAnchor ? .proceed : .unspecified
                #expect(report.result == (distrusted ? .recoverableTrustFailure : passing), "\(label): \(report.result)")
                if distrusted {
                    #expect(report.error?.rule?.id == "certkit.distrust-after", "\(label)")
                    #expect(report.error?.certificateIndex == index, "\(label)")
                }
            }
        }
    }

    @Test("a distrust-after setting limited to another policy does not apply")
    func policyScope() throws {
        let notBefore = try Self.material().leaf.notBefore.addingTimeInterval(-1)
        for (backend, report) in try Self.reports(.appAnchor, date: notBefore, policy: .sslClient) {
            #expect(report.result == .unspecified, "\(backend): \(report.checks)")
        }
        for (backend, report) in try Self.reports(.appAnchor, date: notBefore, policy: .sslServer) {
            #expect(report.result == .recoverableTrustFailure, "\(backend): \(report.checks)")
        }
    }

    @Test("the leaf's issuance is its earliest valid SCT when one is given, else its notBefore")
    func issuanceJudgement() throws {
        let leaf = try Self.material().leaf
        let cutoff = leaf.notBefore
        #expect(!LeafIssuance.isIssued(leaf, after: cutoff))
        #expect(LeafIssuance.isIssued(leaf, after: cutoff.addingTimeInterval(-1)))
        // A backdated notBefore does not escape the SCT's timestamp, and an SCT before the date clears the leaf.
        #expect(LeafIssuance.isIssued(leaf, after: cutoff, earliestValidSCT: cutoff.addingTimeInterval(1)))
        #expect(!LeafIssuance.isIssued(
            leaf, after: cutoff.addingTimeInterval(-1), earliestValidSCT: cutoff.addingTimeInterval(-1)))
    }

    @Test("the earliest of several applying dates decides, and a related copy's date binds as a deny does")
    func earliestDateAndIdentity() throws {
        let material = try Self.material()
        let notBefore = material.leaf.notBefore
        let index = TrustSettingsIndex(TrustSettings(certificateSettings: [
            CertificateTrustSettings(certificate: material.root, constraints: [
                .init(result: .trustRoot, distrustAfter: notBefore.addingTimeInterval(100)),
                .init(result: .unspecified, policy: .sslServer, distrustAfter: notBefore.addingTimeInterval(-1)),
            ]),
        ]))
        let policy = TrustPolicy.sslServer(host: "leaf.example")
        #expect(index.resolution(for: material.root, under: policy).distrustAfter == notBefore.addingTimeInterval(-1))
        #expect(index.resolution(for: material.root, under: .basicX509).distrustAfter == notBefore.addingTimeInterval(100))
        #expect(index.resolution(for: material.intermediate, under: policy).distrustAfter == nil)
        // A copy of the root with another signature value (same issuer and serial, same subject and key) carries
        // the date: the root itself is limited by it, as a deny on the copy would deny it.
        let copy = try ReencodedCertificate.withSignature(material.root, Array(repeating: 0x5a, count: 256))
        #expect(copy != material.root)
        let related = TrustSettingsIndex(TrustSettings(certificateSettings: [
            CertificateTrustSettings(certificate: copy, constraints: [.init(result: .unspecified, distrustAfter: notBefore)]),
        ]))
        #expect(related.resolution(for: material.root, under: policy).distrustAfter == notBefore)
        #expect(related.resolution(for: material.intermediate, under: policy).distrustAfter == nil)
    }
}
