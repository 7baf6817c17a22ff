import CertKit

/// Renders ``TrustReport`` values as one JSON document.
///
/// Schema (stable; keys sorted, two-space indentation, dates ISO 8601 UTC with a `Z`):
/// ```
/// {
///   "result": "recoverableTrustFailure",   // TrustResultType name
///   "resultCode": 5,                       // its SecTrustResultType raw value
///   "trusted": false,                      // true exactly for proceed and unspecified
///   "error": {"code": -67818, "name": "errSecCertificateExpired", "check": "TemporalValidity",
///             "certificateIndex": 0, "message": "...",
///             "rule": "rfc5280.validity",          // the rule that failed (Docs/Profiles.md)
///             "ruleProfiles": ["apple", "rfc5280", "webpki"]} | null,   // the profiles enforcing it
///   "backend": "openssl",
///   "policy": "ssl-server",                // basic | ssl-server | ssl-client | email
///   "profile": "apple",                    // apple | rfc5280 | webpki
///   "host": "leaf.example" | null,         // the peer name checked by an SSL policy
///   "identities": ["DNS:a.example", "email:u@a.example"],   // only for ssl-client with several identities
///   "verifyDate": "2030-06-01T00:00:00Z",
///   "pathsTried": 1,
///   "chain": [{"index": 0, "subject": "...", "issuer": "...", "sha256": "<64 lowercase hex>",
///              "notBefore": "...", "notAfter": "...", "failedChecks": ["TemporalValidity"],   // checks sorted
///              "failedRules": ["rfc5280.validity"],                                            // in check order
///              "revocation": {"checked": true, "outcome": "good",       // only when revocation was asked for:
///                             "source": "stapledOCSP", "validUntil": "..."}}]   // good|revoked|notChecked|notApplicable;
///                                                      // stapledOCSP|ocsp|crlFile|crlFetched|null; date|null
///   // with --network, when something was fetched: "fetchedFrom": "http://..." | null on each chain entry, and
///   "fetches": [{"url": "http://...", "problem": "timed out" | null, "fromCache": false, "outcome": "..." | null}]
///   // only when a pool certificate did not decode and was left out (the leaf must always decode):
///   "skippedCertificates": [{"source": "intermediates.pem", "index": 1, "reason": "PEM block 2 (CERTIFICATE): ..."}]
///   // with --audit, when the library refused for a reason no certkit rule explains (LibraryVerdict):
///   "libraryVerdict": ["[0] openssl: <the library's words> [<status>]"]
/// }
/// ```
/// With `--backend both`, when the backends agree the document above gains `"backends": ["openssl", "gnutls"]`
/// and `"agree": true`; when they disagree the document is `{"agree": false, "reports": {"openssl": {...},
/// "gnutls": {...}}}` with one document of the form above per backend.
enum EvaluateJSONRenderer {
    static func object(_ report: TrustReport) -> [String: JSONValue] {
        var document: [String: JSONValue] = [
            "result": .string(report.result.description),
            "resultCode": .int(report.result.rawValue),
            "trusted": .bool(report.isTrusted),
            "error": report.error.map { error in
                .object([
                    "code": .int(Int(error.code.rawValue)),
                    "name": .string(error.code.name),
                    "check": .string(error.check.name),
                    "certificateIndex": .int(error.certificateIndex),
                    "message": .string(error.message),
                    "rule": .optional(error.rule?.id),
                    "ruleProfiles": error.rule.map { .strings($0.orderedProfiles.map(\.rawValue)) } ?? .null,
                ])
            } ?? .null,
            "backend": .string(report.backend),
            "policy": .string(report.policy.description),
            "profile": .string(report.policy.profile.rawValue),
            "host": .optional(host(report.policy)),
            "verifyDate": .string(ISO8601Text.timestamp(report.verifyDate)),
            "pathsTried": .int(report.pathsTried),
            "chain": .array(report.chain.enumerated().map { index, certificate in
                var item: [String: JSONValue] = [
                    "index": .int(index),
                    "subject": .string(certificate.subject.description),
                    "issuer": .string(certificate.issuer.description),
                    "sha256": .string(index < report.fingerprints.count ? Hex.encode(report.fingerprints[index]) : ""),
                    "notBefore": .string(ISO8601Text.timestamp(certificate.notBefore)),
                    "notAfter": .string(ISO8601Text.timestamp(certificate.notAfter)),
                    "failedChecks": .strings(
                        index < report.checks.count ? report.checks[index].sorted().map(\.name) : []),
                    "failedRules": .strings(report.failedRules(at: index).map(\.id)),
                ]
                if index < report.revocation.count { item["revocation"] = RevocationText.json(report.revocation[index]) }
                if index < report.fetchedFrom.count { item["fetchedFrom"] = .optional(report.fetchedFrom[index]) }
                return .object(item)
            }),
        ]
        if !report.fetches.isEmpty {
            document["fetches"] = .array(report.fetches.map { fetch in
                .object([
                    "url": .string(fetch.url), "problem": .optional(fetch.problem), "fromCache": .bool(fetch.fromCache),
                    "outcome": .optional(fetch.outcome),
                ])
            })
        }
        if !report.libraryVerdict.isEmpty { document["libraryVerdict"] = .strings(report.libraryVerdict) }
        if case .sslClient(let identities, _) = report.policy {
            document["identities"] = .strings(identities.map(\.description))
        }
        if !report.skippedCertificates.isEmpty {
            document["skippedCertificates"] = .array(report.skippedCertificates.map { skipped in
                .object(["source": .string(skipped.source), "index": .int(skipped.index), "reason": .string(skipped.reason)])
            })
        }
        return document
    }

    /// One report.
    static func render(_ report: TrustReport) -> String { JSONValue.object(object(report)).rendered }

    /// Reports that agree: the first report's document plus the backends' names.
    static func renderAgreement(_ reports: [TrustReport]) -> String {
        var document = object(reports[0])
        document["backends"] = .strings(reports.map(\.backend))
        document["agree"] = .bool(true)
        return JSONValue.object(document).rendered
    }

    /// Reports that disagree, side by side.
    static func renderDisagreement(_ reports: [TrustReport]) -> String {
        var byBackend: [String: JSONValue] = [:]
        for report in reports { byBackend[report.backend] = .object(object(report)) }
        return JSONValue.object(["agree": .bool(false), "reports": .object(byBackend)]).rendered
    }

    private static func host(_ policy: TrustPolicy) -> String? {
        if case .ssl(_, let name?, _) = policy { return name.description }
        return nil
    }
}
