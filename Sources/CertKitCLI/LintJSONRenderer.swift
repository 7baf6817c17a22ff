import CertKit
import Foundation

/// `certkit lint --json`: one document, keys sorted (Docs/CLI.md, "lint --json", lists every key).
///
/// ```json
/// {"allTrusted": false, "anchorSources": [...], "chain": [{"index": 0, "subject": "CN=leaf.example", ...}],
///  "host": "leaf.example", "issuance": [{"rule": "br.validity-period", "certificateIndex": 0, ...}],
///  "targets": [{"name": "ios", "profile": "apple", "mode": "core", "backend": "openssl", "trusted": false,
///               "result": "recoverableTrustFailure", "pathsTried": 1, "chain": [...], "findings": [...]}],
///  "verifyDate": "2026-12-03T18:00:00Z"}
/// ```
enum LintJSONRenderer {
    /// The schema's version, bumped when a key changes meaning or goes away.
    static let schemaVersion = 1

    static func document(_ result: LintResult) -> JSONValue {
        var members: [String: JSONValue] = [
            "schemaVersion": .int(schemaVersion),
            "allTrusted": .bool(result.allTrusted),
            "chain": .array(result.presented.enumerated().map { index, certificate in
                .object([
                    "index": .int(index),
                    "subject": .string(certificate.subject.description),
                    "issuer": .string(certificate.issuer.description),
                    "serial": .string(HexText.colonLowercase(certificate.serialNumber)),
                    "notBefore": .string(ISO8601Text.timestamp(certificate.notBefore)),
                    "notAfter": .string(ISO8601Text.timestamp(certificate.notAfter)),
                ])
            }),
            "host": .optional(result.peerName),
            "issuance": .array(result.issuance.map(finding)),
            "targets": .array(result.verdicts.map(target)),
            "verifyDate": .string(ISO8601Text.timestamp(result.date)),
        ]
        if let sources = result.notes.anchorSources { members["anchorSources"] = sources.json }
        if !result.skipped.isEmpty {
            members["skippedCertificates"] = .array(result.skipped.map { skipped in
                .object(["source": .string(skipped.source), "index": .int(skipped.index), "reason": .string(skipped.reason)])
            })
        }
        return .object(members)
    }

    static func target(_ verdict: LintVerdict) -> JSONValue {
        let mode: String
        switch verdict.target.mode {
        case .core: mode = "core"
        case .library: mode = "library"
        }
        return .object([
            "name": .string(verdict.target.name),
            "profile": .string(verdict.target.profile.rawValue),
            "ruleSets": .strings(verdict.target.ruleSets.map(\.name)),
            "mode": .string(mode),
            "backend": .string(verdict.backend),
            "trusted": .bool(verdict.trusted),
            "result": .string(verdict.result.description),
            "pathsTried": .int(verdict.pathsTried),
            "chain": chain(verdict.chain),
            "findings": .array(verdict.findings.map(finding)),
            "otherPaths": .array(verdict.otherPaths.map { path in
                .object([
                    "chain": chain(path.chain),
                    "trusted": .bool(path.trusted),
                    "findings": .array(path.findings.map(finding)),
                ])
            }),
        ])
    }

    private static func chain(_ certificates: [Certificate]) -> JSONValue {
        .array(certificates.enumerated().map { index, certificate in
            .object(["index": .int(index), "subject": .string(certificate.subject.description)])
        })
    }

    static func finding(_ finding: LintFinding) -> JSONValue {
        .object([
            "rule": .string(finding.rule),
            "certificateIndex": finding.certificateIndex.map(JSONValue.int) ?? .null,
            "subject": .string(finding.subject),
            "check": .optional(finding.check),
            "detail": .optional(finding.detail),
            "hint": .string(finding.hint),
        ])
    }
}
