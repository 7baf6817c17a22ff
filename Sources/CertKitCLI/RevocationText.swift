import CertKit

/// How the evaluate renderers word a certificate's ``RevocationStatus``.
enum RevocationText {
    /// The source as the documentation names it: `stapled OCSP`, `OCSP`, `CRL file`, `CRL fetched`.
    static func source(_ source: RevocationSource) -> String {
        switch source {
        case .stapledOCSP: "stapled OCSP"
        case .ocsp: "OCSP"
        case .crlFile: "CRL file"
        case .crlFetched: "CRL fetched"
        }
    }

    /// One line: `good (stapled OCSP) until 2030-06-08T00:00:00Z`, `revoked (CRL file) on 2025-01-01T00:00:00Z,
    /// reason keyCompromise`, `not checked`, `not applicable`; `source` replaces the status's own source name.
    static func line(_ status: RevocationStatus, source: String? = nil) -> String {
        switch status.outcome {
        case .notChecked: return "not checked"
        case .notApplicable: return "not applicable"
        case .good, .revoked:
            var text = status.outcome.rawValue
            if let source = source ?? status.source.map(self.source) { text += " (\(source))" }
            if let until = status.validUntil { text += " until \(ISO8601Text.timestamp(until))" }
            if let date = status.revocationDate { text += " on \(ISO8601Text.timestamp(date))" }
            if let reason = status.revocationReason { text += ", reason \(RevocationStatus.reasonName(reason))" }
            return text
        }
    }

    /// The JSON object: `{"checked": true, "outcome": "good", "source": "stapledOCSP", "validUntil": "..."}`.
    /// A revoked certificate's object adds `"revocationDate": "..." | null` and `"revocationReason":
    /// "keyCompromise" | null`.
    static func json(_ status: RevocationStatus, source: String? = nil) -> JSONValue {
        var members: [String: JSONValue] = [
            "checked": .bool(status.isChecked),
            "outcome": .string(status.outcome.rawValue),
            "source": .optional(source ?? status.source?.rawValue),
            "validUntil": .optional(status.validUntil.map(ISO8601Text.timestamp)),
        ]
        if status.outcome == .revoked {
            members["revocationDate"] = .optional(status.revocationDate.map(ISO8601Text.timestamp))
            members["revocationReason"] = .optional(status.revocationReason.map(RevocationStatus.reasonName))
        }
        return .object(members)
    }
}
