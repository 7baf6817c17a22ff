import CertKit
import Foundation

/// `certkit lint`'s table: one column per target, a verdict row (✓ trusted, ✗ not), then one row per broken rule
/// (✗ for each target that finds it, · for the others) with the certificate, the check, what is wrong and the fix
/// on the two lines below it; then the path each target built, the issuance findings and the anchors.
///
/// ```
/// lint: host leaf.example, at 2026-12-03T18:00:00Z
///                             ios  macos  chrome  firefox  rfc5280  openssl  gnutls
/// trusted                     ✗    ✗      ✗       ✗        ✗        ✓        ✓
/// [0] certkit.peer-name       ✗    ✗      ✗       ✗        ✗        ·        ·
///     CN=leaf.example · SSLHostname · "other.example" is not in the certificate's subjectAltName
///     fix: add the host name to the leaf's subjectAltName (or connect with the right name)
/// ```
enum LintTextRenderer {
    /// The marks: a target trusts / refuses, a rule is broken for a target / not.
    static let trustedMark = "✓", refusedMark = "✗", absentMark = "·"

    static func render(_ result: LintResult, colour: Bool = false) -> String {
        var lines: [String] = []
        let head = ["lint:"]
            + [result.peerName.map { "host \(DisplayText.escaped($0))," } ?? "no host name checked,"]
            + ["at \(ISO8601Text.timestamp(result.date))"]
        lines.append(head.joined(separator: " "))

        // Rows: every finding of every target, once per (certificate, rule), in the first target's order.
        var order: [String] = []
        var rows: [String: (finding: LintFinding, targets: Set<String>)] = [:]
        for verdict in result.verdicts {
            for finding in verdict.findings {
                // A library that names no certificate (GnuTLS) joins the row of the same rule on a certificate.
                var key = finding.rowKey
                if finding.certificateIndex == nil,
                   let named = order.first(where: { rows[$0]!.finding.rule == finding.rule }) {
                    key = named
                }
                if rows[key] == nil {
                    order.append(key)
                    rows[key] = (finding, [])
                }
                rows[key]!.targets.insert(verdict.target.name)
                if rows[key]!.finding.detail == nil, let detail = finding.detail {
                    rows[key]!.finding.detail = detail
                }
            }
        }
        let labels = order.map { key -> String in
            let finding = rows[key]!.finding
            return (finding.certificateIndex.map { "[\($0)] " } ?? "") + finding.rule
        }
        let labelWidth = max(["trusted"].map(\.count).max()!, labels.map(\.count).max() ?? 0) + 2
        let names = result.verdicts.map(\.target.name)
        func row(_ label: String, _ marks: [String]) -> String {
            var line = pad(label, labelWidth)
            for (index, mark) in marks.enumerated() {
                let cell = index == marks.count - 1 ? mark : pad(mark, names[index].count + 2, visible: 1)
                line += cell
            }
            return line.trimmingTrailingSpaces()
        }
        func paint(_ mark: String) -> String {
            guard colour else { return mark }
            switch mark {
            case trustedMark: return "\u{1B}[32m\(mark)\u{1B}[0m"
            case refusedMark: return "\u{1B}[31m\(mark)\u{1B}[0m"
            default: return mark
            }
        }
        lines.append((String(repeating: " ", count: labelWidth) + names.map { pad($0, $0.count + 2) }.joined())
            .trimmingTrailingSpaces())
        lines.append(row("trusted", result.verdicts.map { paint($0.trusted ? trustedMark : refusedMark) }))
        for (key, label) in zip(order, labels) {
            let (finding, targets) = rows[key]!
            lines.append(row(label, names.map { paint(targets.contains($0) ? refusedMark : absentMark) }))
            let what = [finding.subject.isEmpty ? "the chain" : finding.subject, finding.check, finding.detail]
                .compactMap { $0 }.map { DisplayText.escaped($0) }
            lines.append("    " + what.joined(separator: " · "))
            lines.append("    fix: " + finding.hint)
        }
        if order.isEmpty { lines.append("  (no rule broken for any target)") }

        // The path each target judged, once per distinct path.
        var paths: [(chain: [Certificate], targets: [String])] = []
        for verdict in result.verdicts {
            if let index = paths.firstIndex(where: { $0.chain == verdict.chain }) {
                paths[index].targets.append(verdict.target.name)
            } else {
                paths.append((verdict.chain, [verdict.target.name]))
            }
        }
        for path in paths {
            let chain = path.chain.enumerated().map { "[\($0.offset)] \($0.element.subject)" }.joined(separator: " ← ")
            lines.append("path (\(path.targets.joined(separator: ", "))): \(chain)")
        }

        // Other candidate paths, once per distinct path, with the rules broken on them.
        var others: [(path: LintPath, targets: [String])] = []
        for verdict in result.verdicts {
            for path in verdict.otherPaths {
                let rules = Set(path.findings.map(\.rowKey))
                if let index = others.firstIndex(where: {
                    $0.path.chain == path.chain && Set($0.path.findings.map(\.rowKey)) == rules
                }) {
                    others[index].targets.append(verdict.target.name)
                } else {
                    others.append((path, [verdict.target.name]))
                }
            }
        }
        for other in others {
            let chain = other.path.chain.enumerated().map { "[\($0.offset)] \($0.element.subject)" }.joined(separator: " ← ")
            let rules = other.path.findings.map { finding in
                (finding.certificateIndex.map { "[\($0)] " } ?? "") + finding.rule
            }
            lines.append("other path (\(other.targets.joined(separator: ", "))): \(chain)")
            lines.append("    " + (other.path.trusted ? "\(paint(trustedMark)) trusted" : "\(paint(refusedMark)) " + rules.joined(separator: ", ")))
        }

        lines.append("issuance (CA/B Forum Baseline Requirements; findings about how the certificates were issued, not a client's verdict):")
        if result.issuance.isEmpty { lines.append("  \(paint(trustedMark)) no finding") }
        for finding in result.issuance {
            let place = finding.certificateIndex.map { "[\($0)] " } ?? ""
            lines.append("  \(paint(refusedMark)) \(place)\(finding.rule)  \(DisplayText.escaped(finding.subject))"
                + (finding.detail.map { ": \(DisplayText.escaped($0))" } ?? ""))
            lines.append("      fix: " + finding.hint)
        }
        for skipped in result.skipped { lines.append("  skipped: " + DisplayText.escaped(skipped.description)) }
        if let sources = result.notes.anchorSources { lines.append(sources.text) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` followed by spaces up to `width` columns; `visible` is the text's width when it holds escape codes.
    private static func pad(_ text: String, _ width: Int, visible: Int? = nil) -> String {
        let shown = visible ?? text.count
        return text + String(repeating: " ", count: max(1, width - shown))
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
