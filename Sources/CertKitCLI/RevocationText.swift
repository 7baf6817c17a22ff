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

    /// One line: `good (stapled OCSP) until 2030-06-08T00:00:00Z`, `revoked (CRL file)`, `not checked`,
    /// `not applicable`.
    static func line(_ status: RevocationStatus, source: String? = nil) -> String {
        switch status.outcome {
        case .notChecked: return "not checked"
        case .notApplicable: return "not applicable"
        case .good, .revoked:
            var text = status.outcome.rawValue
            if let source = source ?? status.source.map(self.source) { text += " (\(source))" }
            if let until = status.validUntil { text += " until \(ISO8601Text.timestamp(until))" }
            return text
        }
    }

    /// The JSON object: `{"checked": true, "outcome": "good", "source": "stapledOCSP", "validUntil": "..."}`.
    static func json(_ status: RevocationStatus, source: String? = nil) -> JSONValue {
        .object([
            "checked": .bool(status.isChecked),
            "outcome": .string(status.outcome.rawValue),
            "source": .optional(source ?? status.source?.rawValue),
            "validUntil": .optional(status.validUntil.map(ISO8601Text.timestamp)),
        ])
    }
}
