import CertKit

/// Renders ``CertificateSummary`` values as one JSON document.
///
/// Schema (stable; keys sorted, two-space indentation, dates ISO 8601 UTC with a `Z`):
/// ```
/// {"certificates": [{
///   "index": 0,                          // position over all inputs, in order, from 0
///   "file": "chain.pem",                 // the input as named on the command line ("<stdin>" for -)
///   "subject": "CN=leaf.example,O=Example",   // RFC 4514
///   "issuer": "CN=Example Intermediate",
///   "serial": "0a:1b",                   // content octets, lowercase colon-separated hex
///   "notBefore": "2024-01-01T00:00:00Z",
///   "notAfter": "2034-01-01T00:00:00Z",
///   "status": "valid",                   // "valid" | "expired" | "not yet valid", at --at or now
///   "subjectAltNames": ["DNS:leaf.example", "IP:192.0.2.1"],   // [] when absent
///   "publicKey": {"algorithm": "RSA", "bits": 2048, "curve": null},  // EC: "EC", field bits, curve name
///   "signatureAlgorithm": "sha256WithRSAEncryption",
///   "basicConstraints": {"ca": true, "pathLength": 0} | null,   // pathLength null when absent
///   "keyUsage": ["digitalSignature", ...] | null,              // null when the extension is absent
///   "extendedKeyUsage": ["serverAuth", ...] | null,            // names for known OIDs, else the OID
///   "extensions": [{"oid": "2.5.29.19", "name": "basicConstraints", "critical": true}],  // name null if unknown
///   "sha256": "<64 lowercase hex>",      // of the DER, computed by the selected backend
///   "sha1": "<40 lowercase hex>",
///   "spkiPin": "sha256/<base64>"         // SHA-256 of the SubjectPublicKeyInfo
/// }]}
/// ```
enum InspectJSONRenderer {
    static func render(_ summaries: [CertificateSummary]) -> String {
        JSONValue.object(["certificates": .array(summaries.map(object))]).rendered
    }

    static func object(_ summary: CertificateSummary) -> JSONValue {
        .object([
            "index": .int(summary.index),
            "file": .string(summary.file),
            "subject": .string(summary.subject),
            "issuer": .string(summary.issuer),
            "serial": .string(summary.serial),
            "notBefore": .string(DateText.iso8601(summary.notBefore)),
            "notAfter": .string(DateText.iso8601(summary.notAfter)),
            "status": .string(summary.status),
            "subjectAltNames": .strings(summary.subjectAltNames),
            "publicKey": .object([
                "algorithm": .string(summary.publicKey.algorithm),
                "bits": summary.publicKey.bits.map(JSONValue.int) ?? .null,
                "curve": .optional(summary.publicKey.curve),
            ]),
            "signatureAlgorithm": .string(summary.signatureAlgorithm),
            "basicConstraints": summary.basicConstraints.map { bc in
                .object(["ca": .bool(bc.isCA), "pathLength": bc.pathLength.map(JSONValue.int) ?? .null])
            } ?? .null,
            "keyUsage": summary.keyUsage.map(JSONValue.strings) ?? .null,
            "extendedKeyUsage": summary.extendedKeyUsage.map(JSONValue.strings) ?? .null,
            "extensions": .array(summary.extensions.map { ext in
                .object(["oid": .string(ext.oid), "name": .optional(ext.name), "critical": .bool(ext.critical)])
            }),
            "sha256": .string(Hex.encode(summary.sha256)),
            "sha1": .string(Hex.encode(summary.sha1)),
            "spkiPin": .string(summary.spkiPin),
        ])
    }
}
