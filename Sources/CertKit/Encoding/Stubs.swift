// Placeholder implementations; replaced by the encoding work. (Delete this file when each type has its own.)
import Foundation

enum X509Parser {
    static func parseCertificate(_ der: [UInt8]) throws(CertificateDecodingError) -> Certificate {
        throw CertificateDecodingError(.unsupportedFormat, "not implemented")
    }
    static func parseCRL(_ der: [UInt8]) throws(CertificateDecodingError) -> CertificateRevocationList {
        throw CertificateDecodingError(.unsupportedFormat, "not implemented")
    }
}
enum PEMDecoder {
    static func decode(_ text: [UInt8]) throws(CertificateDecodingError) -> [PEMBlock] { [] }
}
enum PEMEncoder {
    static func encode(_ bytes: [UInt8], label: String) -> String { "" }
}
enum BundleDecoder {
    static func decode(_ bytes: [UInt8]) throws(CertificateDecodingError) -> CertificateBundle {
        throw CertificateDecodingError(.unsupportedFormat, "not implemented")
    }
}
enum NameFormatting {
    static func rfc4514(_ name: DistinguishedName) -> String { "" }
    static func namesMatch(_ a: DistinguishedName, _ b: DistinguishedName) -> Bool { a.derEncoded == b.derEncoded }
}
enum IPAddressFormatting {
    static func string(_ bytes: [UInt8]) -> String { bytes.map(String.init).joined(separator: ".") }
}
enum IPAddressParsing {
    /// Parses an IPv4 dotted quad or an IPv6 literal (optionally in brackets) into 4 or 16 bytes.
    static func parse(_ text: String) -> [UInt8]? { nil }
}
/// Base64 (RFC 4648) codec.
public enum Base64 {
    /// Standard base64 with padding.
    public static func encode(_ bytes: [UInt8]) -> String { "" }
    /// Decodes standard base64 (padding optional); nil when malformed.
    public static func decode(_ text: String) -> [UInt8]? { nil }
}
