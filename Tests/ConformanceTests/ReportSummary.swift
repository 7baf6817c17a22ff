import CertKit
import CertKitTestSupport

/// The parts of a report conformance compares: result, error, failed checks per index, chain subjects.
struct ReportSummary: Equatable, CustomStringConvertible {
    var result: String
    var error: String?
    var checks: [Int: Set<String>]
    var chainSubjects: [String]

    init(_ report: TrustReport) {
        result = report.result.description
        error = report.error?.code.name
        checks = [:]
        for (index, set) in report.checks.enumerated() where !set.isEmpty {
            checks[index] = Set(set.map(\.name))
        }
        chainSubjects = report.chain.map(\.subject.description)
    }

    init(_ expectation: ConformanceScenario.Expectation, chainSubjects: [String]) {
        result = expectation.result
        error = expectation.error
        checks = [:]
        for (key, names) in expectation.checks where !names.isEmpty { checks[Int(key) ?? -1] = Set(names) }
        self.chainSubjects = expectation.chainSubjects ?? chainSubjects
    }

    var description: String {
        let failed = checks.keys.sorted().map { "\($0): \(checks[$0]!.sorted().joined(separator: ","))" }
        return "\(result) \(error ?? "-") {\(failed.joined(separator: "; "))} \(chainSubjects)"
    }
}
