import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// Docs/Profiles.md lists every rule of the catalog exactly as the code enforces it, with fixtures that exist.
@Suite("Profiles: Docs/Profiles.md matches the rule catalog")
struct ProfileDocumentationTests {
    static let document: String = {
        let url = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Docs/Profiles.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

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

    @Test func everyRuleHasARowWithItsCheckAndProfiles() throws {
        #expect(!Self.document.isEmpty, "Docs/Profiles.md is missing")
        for rule in TrustRules.all {
            let cells = try #require(Self.rows[rule.id], "Docs/Profiles.md has no row for \(rule.id)")
            #expect(cells.count == 7, "\(rule.id)")
            #expect(cells[0] == rule.check.name, "\(rule.id): check")
            for (offset, profile) in TrustProfile.allCases.enumerated() {
                #expect(cells[1 + offset] == (rule.isEnforced(by: profile) ? "✓" : "—"), "\(rule.id): \(profile)")
            }
            #expect(cells[4] == rule.reference, "\(rule.id): reference")
        }
        #expect(Set(Self.rows.keys) == Set(TrustRules.all.map(\.id)), "rows for rules that do not exist")
    }

    @Test func everyRuleHasAFixtureThatExists() throws {
        let names = Set(Fixtures.scenarios.map(\.name))
        for rule in TrustRules.all {
            let fixtures = try #require(Self.rows[rule.id]?.last)
            let named = fixtures.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            #expect(!named.isEmpty || fixtures.contains("unit test"), "\(rule.id): no fixture")
            for name in named {
                let exists = names.contains(name) || TrustProfile.allCases.allSatisfy { names.contains("\(name)-\($0.rawValue)") }
                #expect(exists, "\(rule.id): fixture \(name) does not exist")
            }
        }
    }

    /// Where the profiles differ on a rule, its profiles-set fixtures must show it: rejected under every profile
    /// that enforces it, and accepted (not failing that check) under another.
    @Test func profileFixturesShowTheDifference() throws {
        for rule in TrustRules.all where !rule.isUniversal {
            let fixtures = try #require(Self.rows[rule.id]?.last)
            let materials = fixtures.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
                .map { String($0.element) }.filter { $0.hasPrefix("profiles-") }
            let differing = materials.contains { material in
                let verdicts = TrustProfile.allCases.compactMap { profile in
                    Fixtures.scenarios.first { $0.name == "\(material)-\(profile.rawValue)" }.map {
                        (profile, $0.expected.checks.values.contains { $0.contains(rule.check.name) })
                    }
                }
                // Every enforcing profile fails the check; some other profile does not (another rule of the same
                // check may fail it elsewhere, e.g. webpki.leaf-eku beside apple.server-eku).
                return verdicts.count == 3 && verdicts.allSatisfy { !rule.isEnforced(by: $0.0) || $0.1 }
                    && verdicts.contains { !rule.isEnforced(by: $0.0) && !$0.1 }
            }
            #expect(differing || (materials.isEmpty && fixtures.contains("unit test")),
                    "\(rule.id): no profiles fixture rejected exactly where the rule is enforced")
        }
    }
}
