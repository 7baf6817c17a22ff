import Foundation

/// What `SecTrustCopyExceptions` returns: permission to trust one leaf despite an exact set of recoverable failures.
///
/// JSON form (stable; what `certkit evaluate --save-exceptions` writes):
/// ```json
/// {"version": 1, "leafSHA256": "<64 lowercase hex>", "checks": ["SSLHostname"]}
/// ```
/// An exceptions value applies to a later evaluation only when its leaf has that SHA-256 and every failed check
/// of that evaluation is recoverable and in `checks`. It never covers fatal or deny failures. An exception is a
/// positive decision bound to the exact leaf: a copy of the leaf re-encoded without any key (another SHA-256) is
/// not covered (Docs/TrustModel.md, "What a setting binds to").
public struct TrustExceptions: Sendable, Hashable, Codable {
    /// The format version, 1.
    public var version: Int
    /// SHA-256 of the leaf's DER, lowercase hex.
    public var leafSHA256: String
    /// The recoverable checks accepted, sorted by name.
    public var checks: [TrustCheck]

    /// Creates exceptions for the leaf whose DER has SHA-256 `leafSHA256`, covering `checks`.
    public init(leafSHA256: [UInt8], checks: Set<TrustCheck>) {
        self.version = 1
        self.leafSHA256 = Hex.encode(leafSHA256)
        self.checks = checks.sorted()
    }

    /// Reads the JSON form.
    public init(jsonData: Data) throws {
        let decoded = try JSONDecoder().decode(TrustExceptions.self, from: jsonData)
        guard decoded.version == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unsupported exceptions version \(decoded.version)"))
        }
        guard decoded.leafSHA256.count == 64, Hex.decode(decoded.leafSHA256) != nil else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "leafSHA256 is not 64 hex digits"))
        }
        self = decoded
    }

    /// The JSON form on one line, keys sorted, ending in a newline.
    public func jsonData() -> Data {
        let document = JSONValue.object([
            "checks": .strings(checks.map(\.rawValue)), "leafSHA256": .string(leafSHA256), "version": .int(version),
        ])
        return Data(document.compact.utf8)
    }

    /// True when these exceptions cover `failures` for `leaf`.
    public func covers(leafSHA256 digest: [UInt8], failures: Set<TrustCheck>) -> Bool {
        guard leafSHA256 == Hex.encode(digest), !failures.isEmpty else { return false }
        guard failures.allSatisfy(\.isExceptionAllowed) else { return false }
        return failures.isSubset(of: Set(checks))
    }
}

/// Lowercase hexadecimal.
package enum Hex {
    /// Encodes bytes as lowercase hex.
    package static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex (either case, optional `:` separators); nil when malformed.
    package static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8).filter { $0 != UInt8(ascii: ":") }
        guard chars.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        var index = 0
        while index < chars.count {
            guard let high = nibble(chars[index]), let low = nibble(chars[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
