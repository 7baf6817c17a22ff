import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// Docs/Profiles.md lists every rule of the catalog exactly as the code enforces it, with its evidence: scenarios
/// that fail the rule, scenarios that pass it, and the boundary pair (the last value that passes, the first that
/// fails) where the rule has one. The scenarios' expectations are what this suite reads; ConformanceTests and
/// CoreOnlyConformanceTests run every scenario on both backends and with the core alone, so they are verified there.
@Suite("Profiles: Docs/Profiles.md matches the rule catalog")
struct ProfileDocumentationTests {
    static let repository = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()

    static let document: String = {
        let url = repository.appendingPathComponent("Docs/Profiles.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// The columns after the rule: check, apple, rfc5280, webpki, reference, requires, fails, passes, boundary.
    enum Column {
        static let count = 9
        static let check = 0
        static let reference = 4
        static let fails = 6
        static let passes = 7
        static let boundary = 8
    }

    /// Table rows by rule id: the cells after the first.
    static let rows: [String: [String]] = {
        var rows: [String: [String]] = [:]
        for line in document.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = cells.first, first.hasPrefix("`"), first.hasSuffix("`"), first.contains(".") else { continue }
            rows[String(first.dropFirst().dropLast())] = Array(cells.dropFirst())
        }
        return rows
    }()

    /// One `;`-separated part of an evidence cell.
    enum Evidence: Equatable {
        /// Scenario names, each evidence on its own.
        case scenarios([String])
        /// `last-passing` / `first-failing`.
        case pair(passing: String, failing: String)
        /// `unit test: Suite.test ...` or `— reason`: names in it are references, not evidence.
        case note(String)
    }

    static func backticked(_ text: some StringProtocol) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element) }
    }

    static func evidence(_ cell: String) -> [Evidence] {
        cell.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.map { part in
            if part.hasPrefix("unit test") || part.hasPrefix("—") { return .note(part) }
            let names = backticked(part)
            if names.count == 2, part.hasPrefix("`\(names[0])` / `\(names[1])`") {
                return .pair(passing: names[0], failing: names[1])
            }
            return .scenarios(names)
        }
    }

    static let scenariosByName: [String: ConformanceScenario] = Dictionary(
        uniqueKeysWithValues: Fixtures.scenarios.map { ($0.name, $0) })

    /// A named scenario, or the three of a `profiles-<material>` shorthand.
    static func scenarios(named name: String) -> [ConformanceScenario] {
        if let scenario = scenariosByName[name] { return [scenario] }
        return TrustProfile.allCases.compactMap { scenariosByName["\(name)-\($0.rawValue)"] }
    }

    /// The profile the scenario runs under (the basic policy is always rfc5280).
    static func profile(of scenario: ConformanceScenario) throws -> TrustProfile {
        try scenario.policyOptions.trustPolicy().profile
    }

    /// Whether the named scenarios that run under a profile enforcing `rule` fail its check (true when all do,
    /// false when none does); nil when none of them runs under such a profile or they disagree.
    static func verdict(of name: String, on rule: TrustRule) throws -> Bool? {
        let enforcing = try scenarios(named: name).filter { rule.isEnforced(by: try profile(of: $0)) }
        let failing = enforcing.map { $0.expected.checks.values.contains { $0.contains(rule.check.name) } }
        guard let first = failing.first, failing.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    /// The source of every test file, for `unit test:` references.
    static let testSources: [String] = {
        ["CertKitTests", "CLITests", "ConformanceTests"].flatMap { target in
            let directory = repository.appendingPathComponent("Tests").appendingPathComponent(target)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return files.filter { $0.hasSuffix(".swift") }
                .compactMap { try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
        }
    }()

    @Test func everyRuleHasARowWithItsCheckAndProfiles() throws {
        #expect(!Self.document.isEmpty, "Docs/Profiles.md is missing")
        for rule in TrustRules.all {
            let cells = try #require(Self.rows[rule.id], "Docs/Profiles.md has no row for \(rule.id)")
            #expect(cells.count == Column.count, "\(rule.id)")
            guard cells.count == Column.count else { continue }
            #expect(cells[Column.check] == rule.check.name, "\(rule.id): check")
            for (offset, profile) in TrustProfile.allCases.enumerated() {
                #expect(cells[1 + offset] == (rule.isEnforced(by: profile) ? "✓" : "—"), "\(rule.id): \(profile)")
            }
            #expect(cells[Column.reference] == rule.reference, "\(rule.id): reference")
            for column in [Column.fails, Column.passes, Column.boundary] {
                #expect(!cells[column].isEmpty, "\(rule.id): empty evidence column \(column)")
            }
        }
        #expect(Set(Self.rows.keys) == Set(TrustRules.all.map(\.id)), "rows for rules that do not exist")
    }

    @Test func everyNamedScenarioAndUnitTestExists() throws {
        for rule in TrustRules.all {
            let cells = try #require(Self.rows[rule.id])
            try #require(cells.count == Column.count)
            for column in [Column.fails, Column.passes, Column.boundary] {
                for name in Self.backticked(cells[column]) {
                    #expect(!Self.scenarios(named: name).isEmpty, "\(rule.id): scenario \(name) does not exist")
                }
                for case .note(let note) in Self.evidence(cells[column]) where note.hasPrefix("unit test") {
                    let references = note.matches(of: #/\b([A-Z][A-Za-z]*Tests)(?:\.([a-z][A-Za-z0-9]*))?/#)
                    #expect(!references.isEmpty, "\(rule.id): \(note) names no test suite")
                    for reference in references {
                        let suite = "struct \(reference.output.1)"
                        let source = Self.testSources.first { $0.contains(suite + " ") || $0.contains(suite + "{") }
                        #expect(source != nil, "\(rule.id): no suite \(reference.output.1)")
                        if let test = reference.output.2, let source {
                            #expect(source.contains("func \(test)("), "\(rule.id): no test \(reference.output.1).\(test)")
                        }
                    }
                }
            }
        }
    }

    /// Every rule shows a failing case: a scenario whose expected result fails the rule's check under every profile
    /// that enforces it, or a unit test.
    @Test func failsScenariosFailTheRule() throws {
        for rule in TrustRules.all {
            let evidence = Self.evidence(try #require(Self.rows[rule.id]?[Column.fails]))
            let shown = evidence.contains {
                switch $0 {
                case .scenarios(let names): !names.isEmpty
                case .note(let note): note.hasPrefix("unit test")
                case .pair: false
                }
            }
            #expect(shown, "\(rule.id): no failing case")
            for case .scenarios(let names) in evidence {
                for name in names {
                    #expect(try Self.verdict(of: name, on: rule) == true,
                            "\(rule.id): \(name) does not fail \(rule.check.name) under a profile enforcing the rule")
                }
            }
            for case .pair(_, _) in evidence { Issue.record("\(rule.id): a boundary pair in the fails column") }
        }
    }

    /// Every rule shows a passing case: a scenario run under a profile that enforces the rule whose expected
    /// result does not contain the rule's check.
    @Test func passesScenariosPassTheRule() throws {
        for rule in TrustRules.all {
            let evidence = Self.evidence(try #require(Self.rows[rule.id]?[Column.passes]))
            #expect(!evidence.isEmpty, "\(rule.id): no passing case")
            for case .scenarios(let names) in evidence {
                for name in names {
                    #expect(try Self.verdict(of: name, on: rule) == false,
                            "\(rule.id): \(name) fails \(rule.check.name), or runs under no profile enforcing the rule")
                }
            }
            for case .pair(_, _) in evidence { Issue.record("\(rule.id): a boundary pair in the passes column") }
        }
    }

    /// The control meets every rule, so it shows nothing about any one rule's field: a rule's passing evidence names
    /// another scenario beside it (one that uses the field validly), or a unit test.
    @Test func passingEvidenceIsMoreThanTheControl() throws {
        for rule in TrustRules.all {
            let evidence = Self.evidence(try #require(Self.rows[rule.id]?[Column.passes]))
            let shown = evidence.contains {
                switch $0 {
                case .scenarios(let names): names.contains { $0 != "profiles-control" }
                case .note(let note): note.hasPrefix("unit test")
                case .pair: false
                }
            }
            #expect(shown, "\(rule.id): profiles-control is the only passing case")
        }
    }

    /// A boundary pair: the passing side does not fail the rule's check, the failing side does, both under a
    /// profile enforcing the rule. A rule without a pair says why (`—`) or names its unit test.
    @Test func boundaryPairsStraddleTheRule() throws {
        for rule in TrustRules.all {
            let evidence = Self.evidence(try #require(Self.rows[rule.id]?[Column.boundary]))
            #expect(!evidence.isEmpty, "\(rule.id): no boundary entry")
            for part in evidence {
                switch part {
                case .pair(let passing, let failing):
                    #expect(try Self.verdict(of: passing, on: rule) == false, "\(rule.id): \(passing) is not the passing side")
                    #expect(try Self.verdict(of: failing, on: rule) == true, "\(rule.id): \(failing) is not the failing side")
                case .scenarios(let names):
                    Issue.record("\(rule.id): boundary \(names) is neither a pair, a unit test nor a reason")
                case .note(let note):
                    #expect(note.hasPrefix("unit test: ") || note.count > 2, "\(rule.id): a boundary without a reason")
                }
            }
        }
    }

    /// Where the profiles differ on a rule, its profiles-set scenarios must show it: rejected under every profile
    /// that enforces it, and accepted (not failing that check) under another.
    @Test func profileFixturesShowTheDifference() throws {
        for rule in TrustRules.all where !rule.isUniversal {
            let cells = try #require(Self.rows[rule.id])
            let failing = Self.backticked(cells[Column.fails]).filter { $0.hasPrefix("profiles-") }
            let materials = failing + Self.backticked(cells[Column.passes]).filter { $0.hasPrefix("profiles-") }
            let differing = materials.contains { material in
                let verdicts = TrustProfile.allCases.compactMap { profile in
                    Self.scenariosByName["\(material)-\(profile.rawValue)"].map {
                        (profile, $0.expected.checks.values.contains { $0.contains(rule.check.name) })
                    }
                }
                // Every enforcing profile fails the check; some other profile does not (another rule of the same
                // check may fail it elsewhere, e.g. webpki.leaf-eku beside apple.server-eku).
                return verdicts.count == 3 && verdicts.allSatisfy { !rule.isEnforced(by: $0.0) || $0.1 }
                    && verdicts.contains { !rule.isEnforced(by: $0.0) && !$0.1 }
            }
            #expect(differing || (failing.isEmpty && cells[Column.fails].contains("unit test")),
                    "\(rule.id): no profiles fixture rejected exactly where the rule is enforced")
        }
    }
}
