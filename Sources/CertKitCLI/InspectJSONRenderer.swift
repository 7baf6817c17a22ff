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
/// }],
///  "privateKeys": [{"file": "client.p12", "present": true, "certificateIndex": 0, "algorithm": "RSA 2048"}]
///                 // one per PKCS#12 file read (none otherwise); the key is never shown. Without a key:
///                 // "present": false, "certificateIndex": null, "algorithm": null
/// }
/// ```
enum InspectJSONRenderer {
    static func render(_ summaries: [CertificateSummary], privateKeys: [InspectKeyNote] = []) -> String {
        var document: [String: JSONValue] = ["certificates": .array(summaries.map(object))]
        if !privateKeys.isEmpty {
            document["privateKeys"] = .array(privateKeys.map { key in
                .object(["file": .string(key.file), "present": .bool(key.algorithm != nil),
                         "certificateIndex": key.algorithm == nil ? .null : .int(key.certificateIndex),
                         "algorithm": .optional(key.algorithm)])
            })
        }
        return JSONValue.object(document).rendered
    }

    static func object(_ summary: CertificateSummary) -> JSONValue {
        var members: [String: JSONValue] = [:]
        members["index"] = .int(summary.index)
        members["file"] = .string(summary.file)
        members["subject"] = .string(summary.subject)
        members["issuer"] = .string(summary.issuer)
        members["serial"] = .string(summary.serial)
        members["notBefore"] = .string(ISO8601Text.timestamp(summary.notBefore))
        members["notAfter"] = .string(ISO8601Text.timestamp(summary.notAfter))
        members["status"] = .string(summary.status)
        members["subjectAltNames"] = .strings(summary.subjectAltNames)
        members["publicKey"] = publicKey(summary.publicKey)
        members["signatureAlgorithm"] = .string(summary.signatureAlgorithm)
        members["basicConstraints"] = basicConstraints(summary.basicConstraints)
        members["keyUsage"] = summary.keyUsage.map(JSONValue.strings) ?? .null
        members["extendedKeyUsage"] = summary.extendedKeyUsage.map(JSONValue.strings) ?? .null
        members["extensions"] = .array(summary.extensions.map(extensionObject))
        members["sha256"] = .string(Hex.encode(summary.sha256))
        members["sha1"] = .string(Hex.encode(summary.sha1))
        members["spkiPin"] = .string(summary.spkiPin)
        return .object(members)
    }

    private static func publicKey(_ key: CertificateSummary.Key) -> JSONValue {
        let bits: JSONValue = key.bits.map(JSONValue.int) ?? .null
        return .object(["algorithm": .string(key.algorithm), "bits": bits, "curve": .optional(key.curve)])
    }

    private static func basicConstraints(_ constraints: BasicConstraints?) -> JSONValue {
        guard let constraints else { return .null }
        let pathLength: JSONValue = constraints.pathLength.map(JSONValue.int) ?? .null
        return .object(["ca": .bool(constraints.isCA), "pathLength": pathLength])
    }

    private static func extensionObject(_ ext: CertificateSummary.Extension) -> JSONValue {
        .object(["oid": .string(ext.oid), "name": .optional(ext.name), "critical": .bool(ext.critical)])
    }
}
