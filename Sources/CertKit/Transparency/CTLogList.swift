import Foundation

/// A log's state in a log list (Chrome's and Apple's log list v3).
package enum CTLogState: String, Sendable, Hashable, CaseIterable {
    case pending, qualified, usable, readonly, retired, rejected
}

/// One Certificate Transparency log of a log list.
package struct CTLog: Sendable, Hashable {
    /// The list's description of the log.
    package var description: String
    /// The operator's name.
    package var operatorName: String
    /// The log id the list gives (base64 in the list): the SHA-256 of ``key``'s DER, checked when an SCT names it.
    package var logID: [UInt8]
    /// The log's public key.
    package var key: PublicKeyInfo
    /// The state, nil when the list gives none (such a log approves nothing).
    package var state: CTLogState?
    /// When the log entered its state.
    package var stateTimestamp: Date?
    /// The certificates the log accepts: notAfter in start ..< end (nil: any).
    package var temporalInterval: Range<Date>?
    /// True for an RFC 6962 log (`logs`), false for a static-ct-api log (`tiled_logs`).
    package var isRFC6962: Bool
}

/// A Certificate Transparency log list in the v3 JSON schema Google and Apple publish
/// (`log_list_timestamp`, `operators[].logs[]` and `operators[].tiled_logs[]`, each log with `log_id`, `key`,
/// `state` and an optional `temporal_interval`). Read strictly: bad JSON, a missing or mistyped member, a key that
/// does not decode or a log id that is not 32 bytes is an error naming the file and the member.
///
/// Two lists are equal exactly when their bytes are.
public struct CTLogList: Sendable, Hashable {
    /// The bytes the list was read from.
    package let json: [UInt8]
    /// `log_list_timestamp`: when the list was published (its age decides whether it is enforced).
    public let timestamp: Date
    /// Every log, RFC 6962 and tiled.
    package let logs: [CTLog]
    private let byID: [[UInt8]: Int]

    /// Reads a log list; `source` (a file name) prefixes every error message.
    /// - Throws: ``CertificateDecodingError`` naming `source` and what is wrong.
    public init(json: [UInt8], source: String, limits: Limits = .default) throws(CertificateDecodingError) {
        func fail(_ message: String) -> CertificateDecodingError {
            CertificateDecodingError(.unsupportedFormat, "\(source): not a CT log list v3: \(message)")
        }
        guard json.count <= limits.maxInputBytes else {
            throw .limit("\(source): the log list has more than \(limits.maxInputBytes) bytes", "maxInputBytes")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(json))
        } catch {
            throw fail("bad JSON")
        }
        guard let top = object as? [String: Any] else { throw fail("the top level is not an object") }
        guard let stampText = top["log_list_timestamp"] as? String, let stamp = RFC3339.date(stampText) else {
            throw fail("log_list_timestamp is missing or not an RFC 3339 time")
        }
        guard let operators = top["operators"] as? [Any] else { throw fail("operators is missing or not an array") }
        var logs: [CTLog] = []
        for (operatorIndex, element) in operators.enumerated() {
            let at = "operators[\(operatorIndex)]"
            guard let entry = element as? [String: Any], let name = entry["name"] as? String else {
                throw fail("\(at) is not an object with a name")
            }
            for (member, rfc6962) in [("logs", true), ("tiled_logs", false)] {
                guard let value = entry[member] else {
                    if rfc6962 { throw fail("\(at).logs is missing") }
                    continue
                }
                guard let list = value as? [Any] else { throw fail("\(at).\(member) is not an array") }
                for (logIndex, log) in list.enumerated() {
                    logs.append(try Self.log(log, operatorName: name, rfc6962: rfc6962, at: "\(at).\(member)[\(logIndex)]", fail: fail))
                }
            }
        }
        self.json = json
        self.timestamp = stamp
        self.logs = logs
        var byID: [[UInt8]: Int] = [:]
        for (index, log) in logs.enumerated() where byID[log.logID] == nil { byID[log.logID] = index }
        self.byID = byID
    }

    /// The log whose id is `logID`, if listed.
    package func log(id logID: [UInt8]) -> CTLog? { byID[logID].map { logs[$0] } }

    private static func log(
        _ value: Any, operatorName: String, rfc6962: Bool, at: String, fail: (String) -> CertificateDecodingError
    ) throws(CertificateDecodingError) -> CTLog {
        guard let log = value as? [String: Any] else { throw fail("\(at) is not an object") }
        let description = log["description"] as? String ?? ""
        guard let idText = log["log_id"] as? String, let id = Base64.decode(idText), id.count == 32 else {
            throw fail("\(at).log_id is missing or not 32 bytes of base64")
        }
        guard let keyText = log["key"] as? String, let keyDER = Base64.decode(keyText), !keyDER.isEmpty else {
            throw fail("\(at).key is missing or not base64")
        }
        let key: PublicKeyInfo
        do {
            key = try DERReader.read(keyDER) { reader throws(CertificateDecodingError) -> PublicKeyInfo in
                let node = try reader.read(DERTag.sequence, "SubjectPublicKeyInfo")
                try reader.expectEnd("the log key")
                return try PublicKeyParser.parse(node)
            }
        } catch {
            throw fail("\(at).key is not a SubjectPublicKeyInfo: \(error.message)")
        }
        var state: CTLogState?
        var stateTimestamp: Date?
        if let stateValue = log["state"] {
            guard let states = stateValue as? [String: Any], states.count == 1, let (name, detail) = states.first,
                  let known = CTLogState(rawValue: name), let detailObject = detail as? [String: Any],
                  let stampText = detailObject["timestamp"] as? String, let stamp = RFC3339.date(stampText)
            else { throw fail("\(at).state is not one known state with a timestamp") }
            state = known
            stateTimestamp = stamp
        }
        var interval: Range<Date>?
        if let intervalValue = log["temporal_interval"] {
            guard let object = intervalValue as? [String: Any],
                  let startText = object["start_inclusive"] as? String, let start = RFC3339.date(startText),
                  let endText = object["end_exclusive"] as? String, let end = RFC3339.date(endText), start <= end
            else { throw fail("\(at).temporal_interval is not start_inclusive ≤ end_exclusive") }
            interval = start..<end
        }
        return CTLog(
            description: description, operatorName: operatorName, logID: id, key: key, state: state,
            stateTimestamp: stateTimestamp, temporalInterval: interval, isRFC6962: rfc6962)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.json == rhs.json }
    public func hash(into hasher: inout Hasher) { hasher.combine(encoding: json) }
}

/// RFC 3339 times as the log lists write them: `2024-05-01T12:55:01Z`, with optional fractional seconds and a
/// numeric offset instead of `Z`.
enum RFC3339 {
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x74,
              bytes[13] == 0x3A, bytes[16] == 0x3A,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == 0x2E {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case 0x5A, 0x7A:
            guard index + 1 == bytes.count else { return nil }
        case 0x2B, 0x2D:
            guard index + 6 == bytes.count, bytes[index + 3] == 0x3A, let hours = number(index + 1..<index + 3),
                  let minutes = number(index + 4..<index + 6), hours < 24, minutes < 60 else { return nil }
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == 0x2B ? 1 : -1)
        default:
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        guard let base = calendar.date(from: components), calendar.component(.day, from: base) == day else { return nil }
        return base.addingTimeInterval(fraction - Double(offset))
    }
}
