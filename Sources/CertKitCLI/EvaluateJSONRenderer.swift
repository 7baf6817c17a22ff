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
///   "anchorSources": [{"kind": "anchors" | "systemRoots" | "alwaysTrust" | "trustStore", "path": "...",
///                      "certificates": 1}],   // where trust came from (not in documents rendered outside a command)
///   "backend": "openssl",
///   "policy": "ssl-server",                // basic | ssl-server | ssl-client | email
///   "profile": "apple",                    // apple | rfc5280 | webpki
///   "host": "leaf.example" | null,         // the peer name checked by an SSL policy
///   "hostSource": "--host",                // where it came from: --host, --ip, --servername, "the target HOST:PORT",
///                                          // "the line's host" (only from a command, when there is a host)
///   "identities": ["DNS:a.example", "email:u@a.example"],   // only for ssl-client with several identities
///   "verifyDate": "2030-06-01T00:00:00Z",
///   "revocationChecked": false,            // kSecTrustRevocationChecked: every certificate revocation applies to
///   "revocationValidUntil": "..." | null,  // has a valid answer; kSecTrustRevocationValidUntilDate: the earliest end
///   "certificateTransparency": true | false | null,   // null: not evaluated (no --ct-log-list, or not enforced)
///   "certificateTransparencyDetail": {"note": "...", "scts": [{"log": "...", "operator": "...",   // with a log list,
///       "source": "embedded" | "tls" | "ocsp", "timestamp": "...", "valid": true, "problem": null}]},  // SSL server
///   "pathsTried": 1,
///   "chain": [{"index": 0, "subject": "...", "issuer": "...", "sha256": "<64 lowercase hex>",
///              "notBefore": "...", "notAfter": "...", "failedChecks": ["TemporalValidity"],   // checks sorted
///              "failedRules": ["rfc5280.validity"],                                            // in check order
///              "revocation": {"checked": true, "outcome": "good",       // only when revocation was asked for:
///                             "source": "stapledOCSP", "validUntil": "..."}}]   // good|revoked|notChecked|notApplicable;
///                                                      // stapledOCSP|ocspFile|ocsp|crlFile|crlFetched|null; date|null
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
///
/// The document is written member by member with ``JSONWriter``, its keys in the sorted order that a ``JSONValue``
/// object would have (the tests re-sort every kind of document and compare the bytes).
enum EvaluateJSONRenderer {
    /// Writes the document of `report`. `backends`: the agreeing backends' names, which add `"agree": true` and
    /// `"backends"`; `id`: a batch line's id.
    static func write(
        _ report: TrustReport, to writer: inout JSONWriter, backends: [String]? = nil, id: JSONValue? = nil,
        notes: ReportNotes = ReportNotes()
    ) {
        writer.beginObject()
        if backends != nil {
            writer.key("agree")
            writer.bool(true)
        }
        if let sources = notes.anchorSources {
            writer.key("anchorSources")
            writer.value(sources.json)
        }
        writer.key("backend")
        writer.string(report.backend)
        if let backends {
            writer.key("backends")
            writer.strings(backends)
        }
        writer.key("certificateTransparency")
        if let compliant = report.certificateTransparency?.compliant { writer.bool(compliant) } else { writer.value(.null) }
        if let transparency = report.certificateTransparency {
            writer.key("certificateTransparencyDetail")
            writer.value(transparencyJSON(transparency))
        }
        writer.key("chain")
        writeChain(report, to: &writer, notes: notes)
        writer.key("error")
        if let error = report.error {
            writer.beginObject()
            writer.key("certificateIndex")
            writer.int(error.certificateIndex)
            writer.key("check")
            writer.string(error.check.name)
            writer.key("code")
            writer.int(Int(error.code.rawValue))
            writer.key("message")
            writer.string(error.message)
            writer.key("name")
            writer.string(error.code.name)
            writer.key("rule")
            writer.optional(error.rule?.id)
            writer.key("ruleProfiles")
            if let rule = error.rule { writer.strings(rule.orderedProfiles.map(\.rawValue)) } else { writer.null() }
            writer.endObject()
        } else {
            writer.null()
        }
        if !report.fetches.isEmpty {
            writer.key("fetches")
            writer.value(.array(report.fetches.map { fetch in
                .object([
                    "url": .string(fetch.url), "problem": .optional(fetch.problem), "fromCache": .bool(fetch.fromCache),
                    "outcome": .optional(fetch.outcome),
                ])
            }))
        }
        writer.key("host")
        writer.optional(host(report.policy))
        if host(report.policy) != nil, let origin = notes.peerNameOrigin {
            writer.key("hostSource")
            writer.string(origin)
        }
        if let id {
            writer.key("id")
            writer.value(id)
        }
        if case .sslClient(let identities, _) = report.policy {
            writer.key("identities")
            writer.strings(identities.map(\.description))
        }
        if !report.libraryVerdict.isEmpty {
            writer.key("libraryVerdict")
            writer.strings(report.libraryVerdict)
        }
        writer.key("pathsTried")
        writer.int(report.pathsTried)
        writer.key("policy")
        writer.string(report.policy.description)
        writer.key("profile")
        writer.string(report.policy.profile.rawValue)
        writer.key("result")
        writer.string(report.result.description)
        writer.key("resultCode")
        writer.int(report.result.rawValue)
        writer.key("revocationChecked")
        writer.bool(report.revocationChecked)
        writer.key("revocationValidUntil")
        writer.value(.optional(report.revocationValidUntil.map(ISO8601Text.timestamp)))
        if !report.skippedCertificates.isEmpty {
            writer.key("skippedCertificates")
            writer.value(.array(report.skippedCertificates.map { skipped in
                .object(["source": .string(skipped.source), "index": .int(skipped.index), "reason": .string(skipped.reason)])
            }))
        }
        writer.key("trusted")
        writer.bool(report.isTrusted)
        writer.key("verifyDate")
        writer.string(ISO8601Text.timestamp(report.verifyDate))
        writer.endObject()
    }

    private static func writeChain(_ report: TrustReport, to writer: inout JSONWriter, notes: ReportNotes) {
        let fingerprints = report.fingerprints
        writer.beginArray()
        for (index, certificate) in report.chain.enumerated() {
            writer.beginObject()
            writer.key("failedChecks")
            writer.strings(index < report.checks.count ? report.checks[index].sorted().map(\.name) : [])
            writer.key("failedRules")
            writer.strings(report.failedRules(at: index).map(\.id))
            if index < report.fetchedFrom.count {
                writer.key("fetchedFrom")
                writer.optional(report.fetchedFrom[index])
            }
            writer.key("index")
            writer.int(index)
            writer.key("issuer")
            // The issuer's name is the next certificate's subject when their encodings are equal (names are equal
            // exactly then, and so is their text): its text, made once for a certificate many chains share.
            let next = index + 1 < report.chain.count ? report.chain[index + 1].subject : nil
            writer.string(next == certificate.issuer ? next!.description : certificate.issuer.description)
            writer.key("notAfter")
            writer.string(ISO8601Text.timestamp(certificate.notAfter))
            writer.key("notBefore")
            writer.string(ISO8601Text.timestamp(certificate.notBefore))
            if index < report.revocation.count {
                writer.key("revocation")
                let status = report.revocation[index]
                writer.value(RevocationText.json(status, source: notes.sourceJSON(status, index: index, report: report)))
            }
            writer.key("sha256")
            if index < fingerprints.count { writer.hex(fingerprints[index]) } else { writer.string("") }
            writer.key("subject")
            writer.string(certificate.subject.description)
            writer.endObject()
        }
        writer.endArray()
    }

    /// `{"note": "...", "scts": [{"log": ..., "operator": ..., "source": "embedded" | "tls" | "ocsp",
    /// "timestamp": "...", "valid": true, "problem": null}]}`.
    static func transparencyJSON(_ status: CertificateTransparencyStatus) -> JSONValue {
        .object([
            "note": .string(status.note),
            "scts": .array(status.scts.map { sct in
                .object([
                    "log": .optional(sct.logDescription), "operator": .optional(sct.operatorName),
                    "source": .string(sct.source.rawValue), "timestamp": .string(ISO8601Text.timestamp(sct.timestamp)),
                    "valid": .bool(sct.isValid), "problem": .optional(sct.problem),
                ])
            }),
        ])
    }

    /// One report.
    static func render(_ report: TrustReport, notes: ReportNotes = ReportNotes()) -> String {
        var writer = JSONWriter(pretty: true)
        write(report, to: &writer, notes: notes)
        return writer.finishedText()
    }

    /// Reports that agree: the first report's document plus the backends' names.
    static func renderAgreement(_ reports: [TrustReport], notes: ReportNotes = ReportNotes()) -> String {
        var writer = JSONWriter(pretty: true)
        write(reports[0], to: &writer, backends: reports.map(\.backend), notes: notes)
        return writer.finishedText()
    }

    /// Reports that disagree, side by side.
    static func renderDisagreement(_ reports: [TrustReport], notes: ReportNotes = ReportNotes()) -> String {
        var writer = JSONWriter(pretty: true)
        writeDisagreement(reports, to: &writer, notes: notes)
        return writer.finishedText()
    }

    /// `{"agree": false, "id": ..., "reports": {"<backend>": {...}, ...}}`, the backends in sorted order (the
    /// last report of a backend named twice).
    static func writeDisagreement(
        _ reports: [TrustReport], to writer: inout JSONWriter, id: JSONValue? = nil, notes: ReportNotes = ReportNotes()
    ) {
        var byBackend: [String: TrustReport] = [:]
        for report in reports { byBackend[report.backend] = report }
        writer.beginObject()
        writer.key("agree")
        writer.bool(false)
        if let id {
            writer.key("id")
            writer.value(id)
        }
        writer.key("reports")
        writer.beginObject()
        for (name, report) in byBackend.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            writer.key(named: name)
            write(report, to: &writer, notes: notes)
        }
        writer.endObject()
        writer.endObject()
    }

    private static func host(_ policy: TrustPolicy) -> String? {
        if case .ssl(_, let name?, _) = policy { return name.description }
        return nil
    }
}
