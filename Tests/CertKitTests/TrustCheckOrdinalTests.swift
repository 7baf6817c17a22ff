@testable import CertKit
import Testing

/// `TrustCheck` and `TrustProfile` hash their case, not their name; the aggregator ranks ties by the case's position;
/// a rule keeps its profiles as bits.
@Suite("check and profile hashing by case")
struct TrustCheckOrdinalTests {
    @Test("a check's ordinal is its position in allCases, in one byte")
    func ordinalIsDeclarationOrder() {
        #expect(MemoryLayout<TrustCheck>.size == 1)
        for (index, check) in TrustCheck.allCases.enumerated() {
            #expect(Int(check.ordinal) == index, "\(check)")
        }
        #expect(Set(TrustCheck.allCases).count == TrustCheck.allCases.count)
        #expect(Set(TrustCheck.allCases.map(\.hashValue)).count == TrustCheck.allCases.count)
    }

    @Test("equal checks and profiles hash equally, distinct ones are distinct set members")
    func hashing() {
        for check in TrustCheck.allCases {
            #expect(check.hashValue == TrustCheck(rawValue: check.rawValue)?.hashValue)
            #expect(Set([check, check]).count == 1)
        }
        for profile in TrustProfile.allCases {
            #expect(profile.hashValue == TrustProfile(rawValue: profile.rawValue)?.hashValue)
        }
        #expect(Set(TrustProfile.allCases).count == TrustProfile.allCases.count)
        #expect(Set(TrustProfile.allCases.map(\.hashValue)).count == TrustProfile.allCases.count)
    }

    @Test("every rule is enforced by exactly the profiles it names (the byte of profile bits)")
    func ruleProfiles() {
        var enforced = 0
        for rule in TrustRules.all {
            for profile in TrustProfile.allCases {
                #expect(rule.isEnforced(by: profile) == rule.profiles.contains(profile), "\(rule.id) \(profile)")
                if rule.isEnforced(by: profile) { enforced += 1 }
            }
        }
        #expect(enforced > TrustRules.all.count && enforced < 3 * TrustRules.all.count)
        #expect(Set(TrustProfile.allCases.map(\.bit)).count == 3 && TrustProfile.allCases.allSatisfy { $0.bit.nonzeroBitCount == 1 })
    }

    @Test("on one certificate, checks of equal priority are reported in allCases order")
    func tiesFollowDeclarationOrder() {
        let cases = TrustCheck.allCases
        var pairs = 0
        for (first, earlier) in cases.enumerated() {
            for later in cases[(first + 1)...] where later.priority == earlier.priority {
                #expect(TrustAggregator.primaryFailure([[later, earlier]])?.check == earlier, "\(earlier) before \(later)")
                #expect(TrustAggregator.primaryFailure([[], [earlier, later]])?.index == 1)
                pairs += 1
            }
        }
        #expect(pairs > 0)
    }
}
