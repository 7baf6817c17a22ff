import CertKit
import CertKitBackends
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

extension ForwardingBackend {
    /// A backend that lends the core only the library's signature verification (OpenSSL's) and reports no library
    /// verdict even in the audit mode: every rule is then the core's alone. A rule the core gets wrong can no longer
    /// hide behind a library that enforces it too (the validity and path-length mutants that no test caught).
    static func coreOnly() -> ForwardingBackend {
        ForwardingBackend(OpenSSLBackend(), name: "core-only", overrides: .init(libraryVerdict: { _, _, _, _, _ in [] }))
    }
}

/// Every scenario of every set with the core alone: the report must be the scenario's expected one (the one both
/// libraries give, or, where a library's documented difference is a library defect, the correct one).
@Suite struct CoreOnlyConformanceTests {
    static let evaluator = TrustEvaluator(backend: ForwardingBackend.coreOnly(), configuration: .uncached)

    @Test("scenario passes with the core alone (no library verdict)", arguments: Fixtures.scenarios)
    func coreOnly(_ scenario: ConformanceScenario) throws {
        let report = Self.evaluator.evaluate(try scenario.makeEvaluation())
        let actual = ReportSummary(report)
        let expected = ReportSummary(scenario.expected, chainSubjects: actual.chainSubjects)
        #expect(actual == expected, "\(scenario.name) with the core alone\n  expected \(expected)\n  actual   \(actual)\n  notes \(report.notes)")
    }

    /// Each backend in the audit mode (`Configuration.libraryAudit`): the library's own verifier also judges the
    /// path the core chose. Every scenario must give the report it gives by default (ConformanceTests), on both
    /// backends: a refusal the core explains changes nothing, a known library deviation is no failure.
    static let audited = Dictionary(
        uniqueKeysWithValues: BackendRegistry.standard.entries.map {
            ($0.name, TrustEvaluator(backend: $0.backend(), configuration: .audit))
        })

    @Test("scenario gives the same report on each backend in the audit mode",
          arguments: Fixtures.scenarios, BackendRegistry.standard.names)
    func audit(_ scenario: ConformanceScenario, backend: String) throws {
        let report = try #require(Self.audited[backend]).evaluate(try scenario.makeEvaluation())
        let actual = ReportSummary(report)
        let expected = ReportSummary(scenario.expectation(for: backend), chainSubjects: actual.chainSubjects)
        #expect(actual == expected, "\(scenario.name) on \(backend) in the audit mode\n  expected \(expected)\n  actual   \(actual)\n  notes \(report.notes)")
        #expect(report.libraryVerdict.isEmpty, "\(scenario.name) on \(backend): \(report.libraryVerdict)")
    }
}
