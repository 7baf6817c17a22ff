import CertKit
import CertKitBackends
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

/// The pieces of the verification profiles that a scenario cannot show on its own: the Public Suffix List, name
/// syntax, canonical CN forms, serial numbers, intermediates counting, the rule catalog and its messages.
@Suite("Profiles: rules and their building blocks")
struct ProfileRuleTests {
    @Test func publicSuffixListFollowsTheListsAlgorithm() throws {
        let list = try PublicSuffixList.shared.get()
        #expect(list.ruleCount > 5_000)
        for suffix in ["com", "co.uk", "github.io", "foo.kawasaki.jp", "CO.UK.", "example"] {
            #expect(list.isPublicSuffix(suffix), "\(suffix)")
        }
        for domain in ["leaf.example", "example.co.uk", "city.kawasaki.jp", "user.github.io", ""] {
            #expect(!list.isPublicSuffix(domain), "\(domain)")
        }
        // Unicode rules are kept as A-labels: 公司.cn is a rule of the ICANN section.
        #expect(list.isPublicSuffix("xn--55qx5d.cn"))
    }

    @Test func publicSuffixListParsesRulesAndFailsClearlyWhenMissing() {
        let list = PublicSuffixList(text: "// comment\nexample\n*.wild.example\n!keep.wild.example\nbücher.example extra\n")
        #expect(list.isPublicSuffix("example"))
        #expect(list.isPublicSuffix("any.wild.example"))
        #expect(!list.isPublicSuffix("keep.wild.example"))
        #expect(list.isPublicSuffix("xn--bcher-kva.example"))
        #expect(!list.isPublicSuffix("leaf.example"))
        guard case .failure(let error) = PublicSuffixList.load(path: "/nonexistent/public_suffix_list.dat") else {
            Issue.record("a missing list must fail")
            return
        }
        #expect(error.message.contains("/nonexistent/public_suffix_list.dat"))
        #expect(error.message.contains("publicsuffix"))
    }

    @Test func hostNameSyntax() {
        for valid in ["leaf.example", "a-b.example.", "x", "1.example", "xn--bcher-kva.example"] {
            #expect(NameSyntax.isHostName(valid), "\(valid)")
        }
        for invalid in ["", "bad_name.example", "a..b", "-a.example", "a-.example", ".example", "bücher.example",
                        String(repeating: "a", count: 64) + ".example"] {
            #expect(!NameSyntax.isHostName(invalid), "\(invalid)")
        }
        #expect(NameSyntax.isValid(.dnsName("*.leaf.example")))
        #expect(!NameSyntax.isValid(.dnsName("*")))
        #expect(NameSyntax.isValid(.email("x@leaf.example")))
        #expect(!NameSyntax.isValid(.email("@leaf.example")))
        #expect(!NameSyntax.isValid(.email("x@bad_host")))
        #expect(!NameSyntax.isValid(.ipAddress([1, 2, 3])))
        #expect(NameSyntax.isValid(.uri("https://leaf.example/path")))
        #expect(!NameSyntax.isValid(.uri("leaf.example")))
    }

    @Test func commonNameMustBeACanonicalSAN() {
        let v6: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [1]
        let names: [GeneralName] = [.dnsName("leaf.example"), .ipAddress([10, 0, 0, 1]), .ipAddress(v6)]
        for listed in ["leaf.example", "LEAF.example", "10.0.0.1", "2001:db8::1"] {
            #expect(CommonNameInSANCheck.isListed(listed, in: names), "\(listed)")
        }
        for unlisted in ["other.example", "010.0.0.1", "2001:DB8::1", "2001:db8:0:0:0:0:0:1", "10.0.0.1."] {
            #expect(!CommonNameInSANCheck.isListed(unlisted, in: names), "\(unlisted)")
        }
    }

    @Test func serialNumbers() {
        #expect(SerialNumberCheck.problem([0x01]) == nil)
        #expect(SerialNumberCheck.problem([0x00, 0x80]) == nil)
        #expect(SerialNumberCheck.problem([0x00]) == "zero")
        #expect(SerialNumberCheck.problem([0xFB]) == "negative")
        #expect(SerialNumberCheck.problem([0x00, 0x9A] + Array(repeating: 0x5A, count: 19)) == nil)
        #expect(SerialNumberCheck.problem([0x01] + Array(repeating: 0x5A, count: 20)) == "21 octets long")
    }

    @Test func maxDepthCountsIntermediates() throws {
        let leaf = try #require(Fixtures.scenarios.first { $0.name == "profiles-control-apple" })
        let chain = try Fixtures.certificates(leaf.chain) + Fixtures.certificates(leaf.anchors[0])
        #expect(ChainLengthCheck.intermediates(on: CandidatePath(certificates: chain, endsAtAnchor: true)) == 1)
        #expect(ChainLengthCheck.intermediates(on: CandidatePath(certificates: chain, endsAtAnchor: false)) == 2)
        #expect(ChainLengthCheck.intermediates(on: CandidatePath(certificates: [chain[0]], endsAtAnchor: true)) == 0)
    }

    @Test(arguments: BackendRegistry.standard.names)
    func fractionalVerifyTimeIsFloored(backend: String) throws {
        let scenario = try #require(Fixtures.scenarios.first { $0.name == "profiles-validity-at-not-after-rfc5280" })
        var evaluation = try scenario.makeEvaluation()
        evaluation.verifyDate = try #require(evaluation.verifyDate).addingTimeInterval(0.75)
        let evaluator = TrustEvaluator(backend: ConcurrencyFixtures.backend(backend))
        let report = evaluator.evaluate(evaluation)
        #expect(report.result == .unspecified, "\(report.notes)")
        #expect(report.verifyDate == evaluation.verifyDate!.addingTimeInterval(-0.75))
    }

    @Test func everyRuleIsCatalogedOnceWithItsOwnCheckAndAtLeastOneProfile() {
        let ids = TrustRules.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in TrustRules.all {
            #expect(!rule.profiles.isEmpty, "\(rule.id)")
            #expect(TrustRules.rule(id: rule.id) == rule)
            #expect(["rfc5280.", "webpki.", "apple.", "certkit."].contains { rule.id.hasPrefix($0) }, "\(rule.id)")
        }
        for check in TrustCheck.allCases { #expect(TrustRules.all.contains(TrustRules.generic(for: check))) }
    }

    @Test func failuresNameTheirRuleAndProfilesWithoutCommandLineWords() throws {
        for name in ["profiles-leaf-without-eku-apple", "profiles-rsa-2049-webpki", "profiles-serial-negative-rfc5280"] {
            let scenario = try #require(Fixtures.scenarios.first { $0.name == name })
            let report = TrustEvaluator(backend: OpenSSLBackend()).evaluate(try scenario.makeEvaluation())
            let error = try #require(report.error, "\(name)")
            let rule = try #require(error.rule, "\(name)")
            #expect(error.message.contains(rule.citation), "\(error.message)")
            #expect(!error.message.contains("--"), "\(error.message)")
            #expect(report.failedRules(at: error.certificateIndex).contains(rule))
        }
    }
}
