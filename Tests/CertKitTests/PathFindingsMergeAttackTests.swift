@testable import CertKit
import Testing

/// `PathFindings.merge` skips certificates the other findings have nothing on; `TrustCheck` and `TrustProfile` hash
/// by case. Findings built only through `record` and `remove` merge exactly as the merge that visited every
/// certificate did, and the aggregator's verdict is the one the `allCases` order gives.
@Suite("findings merge and check ranking against the previous implementations")
struct PathFindingsMergeAttackTests {
    typealias Generator = LimitsAlgorithmTests.Generator

    /// The merge before the change: every certificate of `other`, empty or not.
    static func referenceMerge(_ base: PathFindings, _ other: PathFindings) -> PathFindings {
        var merged = base
        for index in other.checks.indices where merged.checks.indices.contains(index) {
            for (check, rules) in other.rules[index] {
                for rule in rules { merged.record(rule, as: check, at: index) }
            }
            merged.checks[index].formUnion(other.checks[index])
        }
        merged.notes += other.notes
        return merged
    }

    /// The aggregator's pick before the change: ranks from a dictionary over `allCases`.
    static func referencePrimary(_ checks: [Set<TrustCheck>]) -> (check: TrustCheck, index: Int)? {
        let order = Dictionary(uniqueKeysWithValues: TrustCheck.allCases.enumerated().map { ($1, $0) })
        var best: (check: TrustCheck, index: Int)?
        for (index, set) in checks.enumerated() {
            for check in set {
                guard let current = best else { best = (check, index); continue }
                if check.priority > current.check.priority
                    || (check.priority == current.check.priority && index < current.index)
                    || (check.priority == current.check.priority && index == current.index && order[check]! < order[current.check]!) {
                    best = (check, index)
                }
            }
        }
        return best
    }

    static func findings(_ count: Int, _ random: inout Generator) -> PathFindings {
        var findings = PathFindings(count: count)
        for _ in 0..<Int(random.next() % 6) {
            let index = Int(random.next() % UInt64(count + 1)) - (random.next() % 8 == 0 ? 1 : 0)
            let rule = LimitsAlgorithmTests.pick(TrustRules.all, &random)
            let check: TrustCheck? = random.next() % 3 == 0 ? LimitsAlgorithmTests.pick(TrustCheck.allCases, &random) : nil
            findings.record(rule, as: check, at: index, note: random.next() % 4 == 0 ? "note" : nil)
            if random.next() % 5 == 0 { findings.remove(check ?? rule.check, at: index) }
        }
        return findings
    }

    @Test("20,000 random pairs of findings: the same merge, the same primary failure")
    func randomPairs() {
        var random = Generator(state: 0x4D65_7267)
        var nonEmpty = 0
        for _ in 0..<20_000 {
            let count = 1 + Int(random.next() % 4)
            let base = Self.findings(count, &random)
            let other = Self.findings(count, &random)
            var merged = base
            merged.merge(other)
            let reference = Self.referenceMerge(base, other)
            #expect(merged == reference)
            let primary = TrustAggregator.primaryFailure(merged.checks)
            let expected = Self.referencePrimary(merged.checks)
            #expect(primary?.check == expected?.check && primary?.index == expected?.index)
            if primary != nil { nonEmpty += 1 }
        }
        #expect(nonEmpty > 5_000)
    }
}
