import Foundation

/// How a Signed Certificate Timestamp reached the evaluation (RFC 6962 §3.3).
public enum SCTSource: String, Sendable, Hashable, CaseIterable {
    /// In the certificate's extension 1.3.6.1.4.1.11129.2.4.2 (an SCT for the precertificate).
    case embedded
    /// In the TLS extension signed_certificate_timestamp (18).
    case tls
    /// In an OCSP single response's extension 1.3.6.1.4.1.11129.2.4.5.
    case ocsp
}

/// One SignedCertificateTimestamp (RFC 6962 §3.2) as a log issued it. Only version 1 (0) is understood: an SCT of
/// another version keeps its version and nothing else, and never counts.
package struct SignedCertificateTimestamp: Sendable, Hashable {
    /// sct_version (v1 = 0).
    package var version: UInt8
    /// The log's id: the SHA-256 of its DER SubjectPublicKeyInfo (32 bytes).
    package var logID: [UInt8]
    /// Milliseconds since the Unix epoch.
    package var timestamp: UInt64
    /// CtExtensions (opaque, signed over).
    package var extensions: [UInt8]
    /// TLS HashAlgorithm (sha256 = 4).
    package var hashAlgorithm: UInt8
    /// TLS SignatureAlgorithm (rsa = 1, ecdsa = 3).
    package var signatureAlgorithm: UInt8
    /// The signature value (a DER ECDSA-Sig-Value, or an RSA signature).
    package var signature: [UInt8]

    /// The timestamp as a date.
    package var date: Date { Date(timeIntervalSince1970: Double(timestamp) / 1000) }

    package init(
        version: UInt8 = 0, logID: [UInt8], timestamp: UInt64, extensions: [UInt8] = [], hashAlgorithm: UInt8 = 4,
        signatureAlgorithm: UInt8, signature: [UInt8]
    ) {
        self.version = version
        self.logID = logID
        self.timestamp = timestamp
        self.extensions = extensions
        self.hashAlgorithm = hashAlgorithm
        self.signatureAlgorithm = signatureAlgorithm
        self.signature = signature
    }

    /// The scheme the SCT's digitally-signed struct names, when it is one certkit verifies: SHA-256 with ECDSA or
    /// with RSA PKCS#1 v1.5 (RFC 6962 §2.1.4 allows only these two).
    package var scheme: SignatureScheme? {
        guard hashAlgorithm == 4 else { return nil }
        switch signatureAlgorithm {
        case 1: return .rsaPKCS1(.sha256)
        case 3: return .ecdsa(.sha256)
        default: return nil
        }
    }

    /// The TLS encoding of one SCT (what ``SCTListParser`` reads back).
    package var encoded: [UInt8] {
        var out: [UInt8] = [version] + logID
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: timestamp >> UInt64(shift))) }
        out += TLSEncoding.opaque16(extensions)
        out += [hashAlgorithm, signatureAlgorithm]
        out += TLSEncoding.opaque16(signature)
        return out
    }
}

/// The TLS presentation-language lengths the CT structures use (RFC 5246 §4.3).
enum TLSEncoding {
    /// `bytes` after its length in two bytes (the caller keeps it under 2^16).
    static func opaque16(_ bytes: [UInt8]) -> [UInt8] { [UInt8(truncatingIfNeeded: bytes.count >> 8), UInt8(truncatingIfNeeded: bytes.count)] + bytes }
    /// `bytes` after its length in three bytes (the caller keeps it under 2^24).
    static func opaque24(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8(truncatingIfNeeded: bytes.count >> 16), UInt8(truncatingIfNeeded: bytes.count >> 8), UInt8(truncatingIfNeeded: bytes.count)] + bytes
    }
}

/// Reads a SignedCertificateTimestampList (RFC 6962 §3.3) strictly and within ``Limits``: a two-byte total length
/// equal to what follows, at least one SCT, each SCT a non-empty two-byte-length item read to its last byte; a
/// version-1 SCT must fill its item exactly. Anything else throws, naming what was wrong.
package enum SCTListParser {
    /// The X.509 extension holding embedded SCTs.
    package static let embeddedOID = "1.3.6.1.4.1.11129.2.4.2"
    /// The OCSP single-response extension holding SCTs.
    package static let ocspOID = "1.3.6.1.4.1.11129.2.4.5"

    /// The SCTs of a TLS-encoded list.
    package static func parse(_ bytes: [UInt8], limits: Limits = .default) throws(CertificateDecodingError) -> [SignedCertificateTimestamp] {
        guard bytes.count <= limits.maxSCTListBytes else {
            throw .limit("the SCT list has \(bytes.count) bytes, more than \(limits.maxSCTListBytes)", "maxSCTListBytes")
        }
        var reader = ByteReader(bytes)
        let total = try reader.length16("the SCT list")
        guard total == reader.remaining else {
            throw CertificateDecodingError(.malformedDER, "the SCT list says \(total) bytes and \(reader.remaining) follow")
        }
        guard total > 0 else { throw CertificateDecodingError(.malformedDER, "the SCT list is empty") }
        var timestamps: [SignedCertificateTimestamp] = []
        while reader.remaining > 0 {
            guard timestamps.count < limits.maxSCTsPerList else {
                throw .limit("the SCT list has more than \(limits.maxSCTsPerList) SCTs", "maxSCTsPerList")
            }
            let length = try reader.length16("SCT \(timestamps.count + 1)")
            guard length > 0 else { throw CertificateDecodingError(.malformedDER, "SCT \(timestamps.count + 1) is empty") }
            let item = try reader.bytes(length, "SCT \(timestamps.count + 1)")
            timestamps.append(try parseOne(item, number: timestamps.count + 1))
        }
        return timestamps
    }

    /// The SCTs of an extension value: an OCTET STRING (the extnValue's content) holding the TLS-encoded list.
    package static func parseExtensionValue(_ extnValue: [UInt8], limits: Limits = .default) throws(CertificateDecodingError) -> [SignedCertificateTimestamp] {
        let inner = try DERReader.read(extnValue) { reader throws(CertificateDecodingError) -> [UInt8] in
            let node = try reader.read(DERTag.octetString, "the SCT list OCTET STRING")
            try reader.expectEnd("the SCT list extension")
            return node.contentBytes
        }
        return try parse(inner, limits: limits)
    }

    private static func parseOne(_ item: [UInt8], number: Int) throws(CertificateDecodingError) -> SignedCertificateTimestamp {
        var reader = ByteReader(item)
        let version = try reader.byte("SCT \(number) version")
        // RFC 6962 §3.2: an SCT of an unknown version is not understood, and ignored (it never counts).
        guard version == 0 else {
            return SignedCertificateTimestamp(version: version, logID: [], timestamp: 0, signatureAlgorithm: 0, signature: [])
        }
        let logID = try reader.bytes(32, "SCT \(number) log id")
        var timestamp: UInt64 = 0
        for byte in try reader.bytes(8, "SCT \(number) timestamp") { timestamp = timestamp << 8 | UInt64(byte) }
        let extensions = try reader.bytes(try reader.length16("SCT \(number) extensions"), "SCT \(number) extensions")
        let hash = try reader.byte("SCT \(number) hash algorithm")
        let algorithm = try reader.byte("SCT \(number) signature algorithm")
        let signatureLength = try reader.length16("SCT \(number) signature")
        guard signatureLength > 0 else { throw CertificateDecodingError(.malformedDER, "SCT \(number) has an empty signature") }
        let signature = try reader.bytes(signatureLength, "SCT \(number) signature")
        guard reader.remaining == 0 else {
            throw CertificateDecodingError(.malformedDER, "SCT \(number) has \(reader.remaining) bytes after its signature")
        }
        return SignedCertificateTimestamp(
            version: 0, logID: logID, timestamp: timestamp, extensions: extensions, hashAlgorithm: hash,
            signatureAlgorithm: algorithm, signature: signature)
    }

    /// A cursor over TLS-encoded bytes: every read is bounds-checked.
    private struct ByteReader {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var remaining: Int { bytes.count - position }

        mutating func byte(_ what: String) throws(CertificateDecodingError) -> UInt8 {
            guard remaining >= 1 else { throw CertificateDecodingError(.malformedDER, "\(what) is truncated") }
            position += 1
            return bytes[position - 1]
        }

        mutating func length16(_ what: String) throws(CertificateDecodingError) -> Int {
            guard remaining >= 2 else { throw CertificateDecodingError(.malformedDER, "the length of \(what) is truncated") }
            position += 2
            return Int(bytes[position - 2]) << 8 | Int(bytes[position - 1])
        }

        mutating func bytes(_ count: Int, _ what: String) throws(CertificateDecodingError) -> [UInt8] {
            guard count <= remaining else {
                throw CertificateDecodingError(.malformedDER, "\(what) needs \(count) bytes and \(remaining) remain")
            }
            position += count
            return Array(bytes[position - count..<position])
        }
    }
}
