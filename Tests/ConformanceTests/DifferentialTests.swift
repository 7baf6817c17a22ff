import CertKit
import CertKitBackends
import Foundation
import Testing

/// Every backend (OpenSSL and GnuTLS) gives the same report for every certificate of the system bundle, evaluated as its own
/// anchor and against a different anchor, just before, during and just after its validity, under the basic
/// and the SSL server policy (issue "GnuTLS backend and cross-backend conformance").
@Suite struct DifferentialTests {
    /// One evaluation of the matrix.
    struct Case: Sendable, CustomStringConvertible {
        var index: Int
        var certificate: Certificate
        var anchor: Certificate
        var anchorKind: String
        var dateKind: String
        var date: Date
        var policy: TrustPolicy

        var description: String {
            "#\(index) \(certificate.subject) anchor=\(anchorKind) at=\(dateKind) policy=\(policy)"
        }

        var evaluation: TrustEvaluation {
            TrustEvaluation(certificates: [certificate], policies: [policy], anchors: [anchor], verifyDate: date)
        }
    }

    /// A disagreement: the case and every backend's summary.
    struct Disagreement: Sendable, CustomStringConvertible {
        var testCase: Case
        var summaries: [(backend: String, summary: String)]

        var description: String {
            "\(testCase)" + summaries.map { "\n  \($0.backend): \($0.summary)" }.joined()
        }
    }

    /// An evaluator per backend of the registry, the default first.
    static let evaluators = BackendRegistry.standard.entries.map { (name: $0.name, evaluator: TrustEvaluator(backend: $0.backend())) }

    /// The system bundle, in file order.
    static func systemCertificates() throws -> [Certificate] {
        let data = try #require(FileManager.default.contents(atPath: SystemTrustStore.bundlePath ?? ""))
        return try CertificateBundle.decode(Array(data)).certificates
    }

    /// certificates × {own anchor, next certificate as anchor} × {before, middle, after} × {basic, ssl-server}.
    static func cases(_ certificates: [Certificate]) -> [Case] {
        var cases: [Case] = []
        for (index, certificate) in certificates.enumerated() {
            let other = certificates[(index + 1) % certificates.count]
            let middle = certificate.notBefore.timeIntervalSince1970
                + ((certificate.notAfter.timeIntervalSince1970 - certificate.notBefore.timeIntervalSince1970) / 2).rounded(.down)
            let dates = [
                ("notBefore-1s", certificate.notBefore.addingTimeInterval(-1)),
                ("middle", Date(timeIntervalSince1970: middle)),
                ("notAfter+1s", certificate.notAfter.addingTimeInterval(1)),
            ]
            for (anchorKind, anchor) in [("self", certificate), ("next", other)] {
                for (dateKind, date) in dates {
                    for policy in [TrustPolicy.basicX509, .sslServer(host: nil)] {
                        cases.append(Case(index: index, certificate: certificate, anchor: anchor, anchorKind: anchorKind,
                                          dateKind: dateKind, date: date, policy: policy))
                    }
                }
            }
        }
        return cases
    }

    /// Result, error code, failed checks per index and chain subjects, as one comparable line.
    static func summary(_ report: TrustReport) -> String {
        let checks = report.checks.enumerated().filter { !$0.element.isEmpty }
            .map { "\($0.offset):\($0.element.map(\.name).sorted().joined(separator: ","))" }
        return "\(report.result) \(report.error?.code.name ?? "-") {\(checks.joined(separator: "; "))} "
            + "\(report.chain.map(\.subject.description))"
    }

    /// What a run of the matrix found.
    struct Outcome: Sendable {
        /// Cases where the summaries differ.
        var disagreements: [Disagreement] = []
        /// The distinct `result error` pairs the default backend reported (to show the matrix exercises several
        /// outcomes).
        var outcomes: Set<String> = []
    }

    /// Runs every case on every backend, in parallel over the cores.
    static func run(_ cases: [Case]) async -> Outcome {
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return await withTaskGroup(of: Outcome.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var outcome = Outcome()
                    for position in stride(from: worker, to: cases.count, by: workers) {
                        let testCase = cases[position]
                        let reports = evaluators.map { ($0.name, $0.evaluator.evaluate(testCase.evaluation)) }
                        let first = reports[0].1
                        outcome.outcomes.insert("\(first.result) \(first.error?.code.name ?? "-")")
                        let summaries = reports.map { (backend: $0.0, summary: summary($0.1)) }
                        if Set(summaries.map(\.summary)).count > 1 {
                            outcome.disagreements.append(Disagreement(testCase: testCase, summaries: summaries))
                        }
                    }
                    return outcome
                }
            }
            var total = Outcome()
            for await part in group {
                total.disagreements += part.disagreements
                total.outcomes.formUnion(part.outcomes)
            }
            total.disagreements.sort { ($0.testCase.index, $0.testCase.description) < ($1.testCase.index, $1.testCase.description) }
            return total
        }
    }

    @Test("every system-bundle certificate gets the same report from every backend")
    func backendsAgreeOnTheSystemBundle() async throws {
        let certificates = try Self.systemCertificates()
        #expect(certificates.count >= 100)
        let cases = Self.cases(certificates)
        let outcome = await Self.run(cases)
        let found = outcome.disagreements
        print("DifferentialTests: \(certificates.count) certificates, \(cases.count) cases, "
              + "\(cases.count * Self.evaluators.count) evaluations, \(found.count) disagreements; outcomes: \(outcome.outcomes.sorted())")
        #expect(cases.count == certificates.count * 12)
        // Trusted (own anchor, in validity), expired, not trusted (another anchor), SHA-1 under SSL at least.
        #expect(outcome.outcomes.count >= 4, "\(outcome.outcomes)")
        #expect(found.isEmpty, "\(found.count) disagreements:\n\(found.prefix(20).map(\.description).joined(separator: "\n"))")
    }
}
