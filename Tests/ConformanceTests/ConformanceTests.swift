import CertKit
import CertKitBackends
import CertKitTestSupport
import Testing

/// Every scenario × every backend, through one runner (Tests/Fixtures/README.md).
@Suite struct ConformanceTests {
    /// An evaluator per backend of the registry, by name.
    static let backends: [String: TrustEvaluator] = Dictionary(
        uniqueKeysWithValues: BackendRegistry.standard.entries.map { ($0.name, TrustEvaluator(backend: $0.backend())) })

    @Test("scenario passes on each backend", arguments: Fixtures.scenarios, BackendRegistry.standard.names)
    func scenarioPasses(_ scenario: ConformanceScenario, backend: String) throws {
        try run(scenario, backend: backend)
    }

    @Test("every backend gives the same report", arguments: Fixtures.scenarios)
    func backendsAgree(_ scenario: ConformanceScenario) throws {
        let evaluation = try scenario.makeEvaluation()
        let summaries = try BackendRegistry.standard.names.map { name in
            (name, ReportSummary(try #require(Self.backends[name]).evaluate(evaluation)))
        }
        let described = summaries.map { "\($0.0): \($0.1)" }.joined(separator: "\n")
        let allEqual = summaries.allSatisfy { $0.1 == summaries[0].1 }
        if scenario.backendDifferences.isEmpty {
            #expect(allEqual, "\(described)")
        } else {
            // A documented difference: each side must show exactly its documented expectation.
            for (_, difference) in scenario.backendDifferences { #expect(!difference.reason.isEmpty) }
            #expect(!allEqual, "a documented backend difference no longer exists; remove it")
        }
    }

    @Test("the scenario list is complete and well-formed")
    func scenariosAreWellFormed() throws {
        let names = Fixtures.scenarios.map(\.name)
        #expect(Set(names).count == names.count, "duplicate scenario names")
        #expect(names.count >= 60)
        for scenario in Fixtures.scenarios {
            #expect(TrustResultType(name: scenario.expected.result) != nil, "\(scenario.name): unknown result")
            if let error = scenario.expected.error {
                #expect(TrustErrorCode(name: error) != nil, "\(scenario.name): unknown error \(error)")
            }
            for names in scenario.expected.checks.values {
                for name in names { #expect(TrustCheck(rawValue: name) != nil, "\(scenario.name): unknown check \(name)") }
            }
        }
    }

    private func run(_ scenario: ConformanceScenario, backend: String) throws {
        let evaluator = try #require(Self.backends[backend])
        let report = evaluator.evaluate(try scenario.makeEvaluation())
        let actual = ReportSummary(report)
        let expected = ReportSummary(scenario.expectation(for: backend), chainSubjects: actual.chainSubjects)
        #expect(actual == expected, "\(scenario.name) on \(backend)\n  expected \(expected)\n  actual   \(actual)\n  notes \(report.notes)")
    }
}

extension ConformanceScenario: CustomTestStringConvertible {
    public var testDescription: String { name }
}
