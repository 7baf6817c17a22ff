import CertKit

/// Renders a ``TrustReport`` as text: a verdict line, then one line per certificate of the built chain.
///
/// ```
/// recoverableTrustFailure: errSecCertificateExpired (-67818): "leaf.example" expired on 2024-01-01
///   [0] CN=leaf.example  (issuer CN=Int)  — TemporalValidity
///   [1] CN=Int  (issuer CN=Root)  — ok
/// ```
/// When the evaluation checked revocation, each certificate line is followed by
/// `      revocation: good (stapled OCSP) until 2030-06-08T00:00:00Z` (or `revoked (CRL file)`, `not checked`,
/// `not applicable`). With a CT log list, a line gives the Certificate Transparency verdict
/// (`  certificate transparency: compliant: embedded SCTs`) and one line per SCT follows. With network fetching, a fetched certificate's line ends with `(fetched from URL)` and one
/// line per URL asked for follows the chain (`  fetched URL: 1 issuer certificate(s) added to the pool`, or
/// `  fetch URL failed: timed out`). A pool certificate that does not decode was left out and gets one line after
/// the chain (`  skipped: certificate 1 of intermediates.pem does not decode (left out of the pool): …`). The error
/// names its rule and the profiles that enforce it; when another profile drops that rule, the verdict line says so
/// (`; use --profile rfc5280 to drop this rule`). In the audit mode, each LibraryVerdict failure adds a line with the
/// library's words (`  library verdict: [0] openssl: ...`). When path building tried more than one candidate path, a
/// line says how many. With ``ReportNotes`` (what a command knows besides the report): a revoked certificate's
/// date and reason, a given OCSP response labelled `stapled OCSP` or `OCSP response file`, `  revocation not
/// checked (no CRL, OCSP or --network)` when nothing was asked for, the verdict's hint (where an SSLHostname's name
/// came from, a missing issuer's caIssuers URL), fetched URLs shortened, and a last line naming the anchor sources
/// (`  anchors: system roots (/etc/ssl/certs/ca-certificates.crt, 146 certificates)`).
enum EvaluateTextRenderer {
    static func render(_ report: TrustReport, notes: ReportNotes = ReportNotes()) -> String {
        var lines = [verdict(report, notes: notes)]
        for (index, certificate) in report.chain.enumerated() {
            let failed = index < report.checks.count ? report.checks[index].sorted().map(\.name) : []
            let fetched = index < report.fetchedFrom.count ? report.fetchedFrom[index] : nil
            lines.append(
                "  [\(index)] \(certificate.subject)  (issuer \(certificate.issuer))  — "
                    + (failed.isEmpty ? "ok" : failed.joined(separator: ", "))
                    + (fetched.map { "  (fetched from \(DisplayText.escaped(ReportNotes.shortened($0))))" } ?? ""))
            if index < report.revocation.count {
                let status = report.revocation[index]
                lines.append(
                    "      revocation: "
                        + RevocationText.line(status, source: notes.sourceText(status, index: index, report: report)))
            }
        }
        if let line = notes.revocationNotChecked(report) { lines.append("  " + line) }
        if let transparency = report.certificateTransparency {
            // With --ct-log-list: the policy's verdict, then each SCT looked at.
            lines.append("  certificate transparency: " + DisplayText.escaped(transparency.note))
            for sct in transparency.scts {
                let log = sct.logDescription.map { "\($0) (\(sct.operatorName ?? "?"))" } ?? "unknown log"
                lines.append(
                    "      SCT \(sct.source.rawValue) \(ISO8601Text.timestamp(sct.timestamp)) \(DisplayText.escaped(log)): "
                        + (sct.problem.map { "not counted: " + DisplayText.escaped($0) } ?? "valid"))
            }
        }
        for fetch in report.fetches {
            // What the network gave, one line per URL: the outcome, or why nothing usable came back.
            let url = DisplayText.escaped(ReportNotes.shortened(fetch.url))
            if let problem = fetch.problem {
                lines.append("  fetch \(url) failed: \(DisplayText.escaped(problem))")
            } else {
                lines.append("  fetched \(url)\(fetch.fromCache ? " (cached)" : ""): \(DisplayText.escaped(fetch.outcome ?? "used"))")
            }
        }
        for skipped in report.skippedCertificates {
            // Left out of the pool because it does not decode: one line each, so nothing is dropped silently.
            lines.append("  skipped: " + DisplayText.escaped(skipped.description))
        }
        for reason in report.libraryVerdict {
            // The audit mode: what the library refused that no certkit rule explains, in its own words.
            lines.append("  library verdict: \(DisplayText.escaped(reason))")
        }
        if report.pathsTried > 1 {
            // Path building tried alternatives: say so, the chain above is the one that was used (or got furthest).
            lines.append("  (\(report.pathsTried) candidate paths tried)")
        }
        if let sources = notes.anchorSources { lines.append("  " + sources.text) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `<result>: <errorName> (<code>): <message>`, or `<result>: trusted`. The message quotes names from the
    /// certificates and the peer name as given, so it goes through ``DisplayText/escaped(_:)``; subjects and
    /// issuers on the chain lines are RFC 4514 strings, already escaped by the same rule.
    static func verdict(_ report: TrustReport, notes: ReportNotes = ReportNotes()) -> String {
        if report.isTrusted { return "\(report.result): trusted" }
        if let error = report.error {
            return "\(report.result): " + DisplayText.escaped(error.description)
                + (notes.hint(report).map { "; " + DisplayText.escaped($0) } ?? "")
                + (ProfileHint.hint(for: report).map { "; \($0)" } ?? "")
        }
        let failed = report.allFailures.sorted().map(\.name)
        return "\(report.result): not trusted" + (failed.isEmpty ? "" : " (\(failed.joined(separator: ", ")))")
    }
}
