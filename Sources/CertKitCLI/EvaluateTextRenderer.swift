import CertKit

/// Renders a ``TrustReport`` as text: a verdict line, then one line per certificate of the built chain.
///
/// ```
/// recoverableTrustFailure: errSecCertificateExpired (-67818): "leaf.example" expired on 2024-01-01
///   [0] CN=leaf.example  (issuer CN=Int)  — TemporalValidity
///   [1] CN=Int  (issuer CN=Root)  — ok
/// ```
enum EvaluateTextRenderer {
    static func render(_ report: TrustReport) -> String {
        var lines = [verdict(report)]
        for (index, certificate) in report.chain.enumerated() {
            let failed = index < report.checks.count ? report.checks[index].sorted().map(\.name) : []
            lines.append(
                "  [\(index)] \(certificate.subject)  (issuer \(certificate.issuer))  — "
                    + (failed.isEmpty ? "ok" : failed.joined(separator: ", ")))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `<result>: <errorName> (<code>): <message>`, or `<result>: trusted`.
    static func verdict(_ report: TrustReport) -> String {
        if report.isTrusted { return "\(report.result): trusted" }
        if let error = report.error { return "\(report.result): \(error)" }
        let failed = report.allFailures.sorted().map(\.name)
        return "\(report.result): not trusted" + (failed.isEmpty ? "" : " (\(failed.joined(separator: ", ")))")
    }
}
