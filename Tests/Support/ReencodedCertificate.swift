import CertKit

/// Copies of a certificate that anyone can make without any key: the same tbsCertificate and
/// algorithm, another signature value. Shared by the core tests and the command-line tests.
package enum ReencodedCertificate {
    /// The order of the P-256 group.
    package static let p256Order: [UInt8] = hexBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")

    /// `certificate` with its signature value replaced by `signature`.
    package static func withSignature(_ certificate: Certificate, _ signature: [UInt8]) throws -> Certificate {
        try Certificate(derEncoded: tlv(
            0x30, certificate.tbsCertificateBytes + certificate.signatureAlgorithm.encoded + tlv(0x03, [0x00] + signature)))
    }

    /// The copy that verifies: an ECDSA P-256 signature's `s` replaced by `n − s`.
    package static func malleated(_ certificate: Certificate) throws -> Certificate {
        let (r, s) = try scalars(certificate.signatureBytes)
        return try withSignature(certificate, sigValue(r: r, s: integer(subtract(p256Order, s))))
    }

    /// `r` with one more leading zero byte (a non-minimal INTEGER, the same value).
    package static func zeroPadded(_ certificate: Certificate) throws -> Certificate {
        let (r, s) = try scalars(certificate.signatureBytes)
        return try withSignature(certificate, sigValue(r: [0x00] + r, s: s))
    }

    /// The ECDSA-Sig-Value's length in the long form (`81 len`; DER requires the short form below 128).
    package static func longForm(_ certificate: Certificate) throws -> Certificate {
        let (r, s) = try scalars(certificate.signatureBytes)
        let body = tlv(0x02, r) + tlv(0x02, s)
        return try withSignature(certificate, [0x30, 0x81, UInt8(body.count)] + body)
    }

    /// `SEQUENCE { INTEGER r, INTEGER s }` with the content octets given.
    package static func sigValue(r: [UInt8], s: [UInt8]) -> [UInt8] { tlv(0x30, tlv(0x02, r) + tlv(0x02, s)) }

    /// The content octets of the two INTEGERs of a DER ECDSA-Sig-Value with short-form lengths (P-256, P-384).
    package static func scalars(_ signature: [UInt8]) throws -> (r: [UInt8], s: [UInt8]) {
        struct NotASignature: Error {}
        guard signature.count > 2, signature[0] == 0x30, Int(signature[1]) == signature.count - 2 else { throw NotASignature() }
        var position = 2
        func integer() throws -> [UInt8] {
            guard position + 2 <= signature.count, signature[position] == 0x02 else { throw NotASignature() }
            let length = Int(signature[position + 1])
            guard length < 0x80, position + 2 + length <= signature.count else { throw NotASignature() }
            defer { position += 2 + length }
            return Array(signature[(position + 2)..<(position + 2 + length)])
        }
        let r = try integer(), s = try integer()
        guard position == signature.count else { throw NotASignature() }
        return (r, s)
    }

    /// The minimal INTEGER content octets of the unsigned big-endian `magnitude`.
    package static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        let trimmed = Array(magnitude.drop { $0 == 0 })
        guard let first = trimmed.first else { return [0x00] }
        return first & 0x80 != 0 ? [0x00] + trimmed : trimmed
    }

    /// `a − b` for unsigned big-endian values with `a ≥ b`, as long as `a`.
    package static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        let trimmed = Array(b.drop { $0 == 0 })
        let b = [UInt8](repeating: 0, count: max(0, a.count - trimmed.count)) + trimmed
        var result = [UInt8](repeating: 0, count: a.count)
        var borrow = 0
        for index in a.indices.reversed() {
            var digit = Int(a[index]) - Int(b[index]) - borrow
            borrow = digit < 0 ? 1 : 0
            if digit < 0 { digit += 256 }
            result[index] = UInt8(digit)
        }
        return result
    }

    /// One DER TLV.
    package static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        var count = content.count
        if count < 0x80 { return [tag, UInt8(count)] + content }
        while count > 0 {
            length.insert(UInt8(count & 0xFF), at: 0)
            count >>= 8
        }
        return [tag, 0x80 | UInt8(length.count)] + length + content
    }
}
