import Foundation

/// The store file's JSON, version 1, or 2 when a setting carries a distrust-after date (Docs/TrustStore.md documents
/// it): a version-1 reader ignores keys it does not know, and must not ignore that one.
///
/// ```json
/// {
///   "certificates": [
///     {
///       "certificate": "<base64 DER>",
///       "settings": [{"result": "trustRoot"}, {"host": "example.com", "policy": "ssl-server", "result": "deny"}],
///       "sha256": "<64 lowercase hex digits of the SHA-256 of the DER>",
///       "subject": "CN=Example Root"
///     }
///   ],
///   "format": "certkit-trust-store",
///   "version": 1
/// }
/// ```
enum TrustStoreFormat {
    /// The `format` value.
    static let name = "certkit-trust-store"

    /// Just enough to tell a certkit store and its version before reading the rest.
    struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    struct Document: Decodable {
        var format: String
        var version: Int
        var certificates: [Entry]
    }

    struct Entry: Decodable {
        var sha256: String
        var subject: String
        var certificate: String
        var settings: [Setting]
    }

    struct Setting: Decodable {
        var result: TrustSettings.Result
        var policy: TrustSettings.Policy?
        var host: String?
        var allowedErrors: [TrustCheck]?
        /// ISO 8601, as ``ISO8601Text/timestamp(_:)`` writes it.
        var distrustAfter: String?
    }

    /// Decodes and checks `bytes` (the file `path`): every certificate must decode, have the recorded SHA-256
    /// (computed by `digest`), appear once, and carry at least one valid setting.
    static func decode(
        _ bytes: [UInt8], path: String, digest: (Certificate) throws(BackendError) -> [UInt8]
    ) throws(TrustStoreError) -> [TrustStore.Entry] {
        let data = Data(bytes)
        try checkHeader(of: data, path: path)
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw corrupt(reason(error), path: path)
        }
        var entries: [TrustStore.Entry] = []
        var seen = Set<String>()
        for (position, entry) in document.certificates.enumerated() {
            entries.append(
                try decode(entry, label: "certificate \(position + 1)", path: path, seen: &seen, digest: digest))
        }
        return entries
    }

    private static func corrupt(_ problem: String, path: String) -> TrustStoreError {
        TrustStoreError(.corrupt, file: path, problem: "corrupt trust store: \(problem)")
    }

    /// Checks that `data` is a JSON object of this format, in the version this certkit reads (a newer one is
    /// ``TrustStoreError/Code/newerFormat``: not read, not changed).
    private static func checkHeader(of data: Data, path: String) throws(TrustStoreError) {
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw corrupt("not JSON", path: path)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw corrupt("not a JSON object", path: path)
        } catch {
            throw corrupt(reason(error), path: path)
        }
        guard header.format == name else {
            throw corrupt(
                header.format.map { "format is '\(MessageText.line($0, limit: 40))', not '\(name)'" }
                    ?? "no \"format\": \"\(name)\"", path: path)
        }
        guard let version = header.version else { throw corrupt("no format version", path: path) }
        if version > TrustStore.formatVersion {
            throw TrustStoreError(
                .newerFormat, file: path,
                problem: "trust store format version \(version) was written by a newer certkit "
                    + "(this one reads version \(TrustStore.formatVersion)); not read, not changed")
        }
        guard version >= 1 else { throw corrupt("unknown format version \(version)", path: path) }
    }

    /// One listed certificate: it must decode, have the recorded SHA-256 (not among `seen`) and at least one
    /// setting, each valid for it.
    private static func decode(
        _ entry: Entry, label: String, path: String, seen: inout Set<String>, digest: (Certificate) throws(BackendError) -> [UInt8]
    ) throws(TrustStoreError) -> TrustStore.Entry {
        guard let der = Data(base64Encoded: entry.certificate) else { throw corrupt("\(label): not base64", path: path) }
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: Array(der))
        } catch {
            throw corrupt("\(label): \(error.message)", path: path)
        }
        let fingerprint: [UInt8]
        do {
            fingerprint = try digest(certificate)
        } catch {
            throw TrustStoreError(.unreadable, file: path, problem: "cannot digest \(label): \(error.message)")
        }
        guard entry.sha256 == Hex.encode(fingerprint) else {
            throw corrupt("\(label): its sha256 is not the SHA-256 of its certificate", path: path)
        }
        guard seen.insert(entry.sha256).inserted else { throw corrupt("\(label): listed twice", path: path) }
        guard !entry.settings.isEmpty else { throw corrupt("\(label): no settings", path: path) }
        var constraints: [TrustSettings.UsageConstraint] = []
        for (index, setting) in entry.settings.enumerated() {
            var distrustAfter: Date?
            if let text = setting.distrustAfter {
                guard let date = try? Date(text, strategy: .iso8601) else {
                    throw corrupt("\(label), setting \(index + 1): distrustAfter is not an ISO 8601 date", path: path)
                }
                distrustAfter = date
            }
            constraints.append(TrustSettings.UsageConstraint(
                result: setting.result, policy: setting.policy, host: setting.host,
                allowedErrors: Set(setting.allowedErrors ?? []), distrustAfter: distrustAfter))
        }
        for (index, constraint) in constraints.enumerated() {
            if let problem = constraint.problem(for: certificate) {
                throw corrupt("\(label), setting \(index + 1): \(problem)", path: path)
            }
        }
        return TrustStore.Entry(certificate: certificate, sha256: fingerprint, constraints: constraints)
    }

    /// The file's bytes for `entries`: certkit's JSON writer (``JSONValue``: keys sorted, two-space indentation),
    /// ending in a newline.
    static func encode(_ entries: [TrustStore.Entry]) -> [UInt8] {
        let document = JSONValue.object([
            "format": .string(name),
            "version": .int(version(of: entries)),
            "certificates": .array(entries.map { entry in
                .object([
                    "sha256": .string(entry.sha256Hex),
                    "subject": .string(entry.certificate.subject.description),
                    "certificate": .string(Data(entry.certificate.derEncoded).base64EncodedString()),
                    "settings": .array(entry.constraints.map(json)),
                ])
            }),
        ])
        return Array(document.rendered.utf8)
    }

    /// The version a store of `entries` is written in: 2 when a setting carries a distrust-after date (a version-1
    /// reader would ignore it and trust what it must not), else 1, which every certkit reads.
    static func version(of entries: [TrustStore.Entry]) -> Int {
        entries.contains { $0.constraints.contains { $0.distrustAfter != nil } } ? TrustStore.formatVersion : 1
    }

    /// One setting as the store file holds it: `result`, and `policy`, `host`, `allowedErrors`, `distrustAfter`
    /// when present.
    static func json(_ constraint: TrustSettings.UsageConstraint) -> JSONValue {
        var members: [String: JSONValue] = ["result": .string(constraint.result.rawValue)]
        if let policy = constraint.policy { members["policy"] = .string(policy.rawValue) }
        if let host = constraint.host { members["host"] = .string(host) }
        if !constraint.allowedErrors.isEmpty { members["allowedErrors"] = .strings(constraint.allowedErrors.map(\.rawValue)) }
        if let date = constraint.distrustAfter { members["distrustAfter"] = .string(ISO8601Text.timestamp(date)) }
        return .object(members)
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty ? "invalid JSON" : "bad value at '\(path(context.codingPath))'"
        case DecodingError.keyNotFound(let key, let context):
            "missing key '\(path(context.codingPath + [key]))'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "bad value at '\(path(context.codingPath))'"
        default: "invalid JSON"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }
}
