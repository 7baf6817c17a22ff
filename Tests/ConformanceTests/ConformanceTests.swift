import CertKit
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Testing

/// Every scenario × every backend, through one runner (DESIGN §7).
@Suite struct ConformanceTests {
    static let backends: [String: TrustEvaluator] = [
        "openssl": TrustEvaluator(backend: OpenSSLBackend()),
        "gnutls": TrustEvaluator(backend: GnuTLSBackend()),
    ]

    @Test("scenario passes on OpenSSL", arguments: Fixtures.scenarios)
    func openssl(_ scenario: ConformanceScenario) throws {
        try run(scenario, backend: "openssl")
    }

    @Test("scenario passes on GnuTLS", arguments: Fixtures.scenarios)
    func gnutls(_ scenario: ConformanceScenario) throws {
        try run(scenario, backend: "gnutls")
    }

    @Test("both backends give the same report", arguments: Fixtures.scenarios)
    func backendsAgree(_ scenario: ConformanceScenario) throws {
        let evaluation = try scenario.makeEvaluation()
        let openssl = ReportSummary(Self.backends["openssl"]!.evaluate(evaluation))
        let gnutls = ReportSummary(Self.backends["gnutls"]!.evaluate(evaluation))
        if scenario.backendDifferences.isEmpty {
            #expect(openssl == gnutls, "openssl: \(openssl)\ngnutls: \(gnutls)")
        } else {
            // A documented difference: each side must show exactly its documented expectation.
            for (_, difference) in scenario.backendDifferences { #expect(!difference.reason.isEmpty) }
            #expect(openssl != gnutls, "a documented backend difference no longer exists; remove it")
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
