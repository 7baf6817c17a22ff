@testable import CertKit
import CertKitTestSupport

/// Unsigned certificates with chosen names, built from the adversarial leaf's key, for tests of path building
/// and name matching (which never look at signatures).
enum LimitsTestCertificates {
    /// A Name of one-attribute RDNs; each value is a UTF8String, or a PrintableString when `printable`.
    static func name(_ rdns: [(oid: [UInt8], value: String)], printable: Bool = false) -> [UInt8] {
        DERBuilder.sequence(rdns.map { rdn in
            DERBuilder.set([DERBuilder.sequence([
                DERBuilder.tlv(0x06, rdn.oid), DERBuilder.tlv(printable ? 0x13 : 0x0C, Array(rdn.value.utf8)),
            ])])
        })
    }

    static let commonName: [UInt8] = [0x55, 0x04, 0x03]
    static let organization: [UInt8] = [0x55, 0x04, 0x0A]

    /// A subjectAltName extension holding `names`.
    static func subjectAltName(_ names: [GeneralName]) -> [UInt8] {
        let encoded = names.map { name -> [UInt8] in
            switch name {
            case .dnsName(let text): DERBuilder.tlv(0x82, Array(text.utf8))
            case .email(let text): DERBuilder.tlv(0x81, Array(text.utf8))
            case .uri(let text): DERBuilder.tlv(0x86, Array(text.utf8))
            case .ipAddress(let bytes): DERBuilder.tlv(0x87, bytes)
            case .directoryName(let name): DERBuilder.tlv(0xA4, name.derEncoded)
            case .other(let tag, let contents): DERBuilder.tlv(0x80 | tag, contents)
            }
        }
        return DERBuilder.extension([0x55, 0x1D, 0x11], DERBuilder.sequence(encoded))
    }

    /// A v3 certificate from `issuer` to `subject` (Name DER), CA or not, valid 2029–2040, junk signature, with
    /// `extensions` after basicConstraints.
    static func make(
        issuer: [UInt8], subject: [UInt8], serial: Int, ca: Bool = true, extensions: [[UInt8]] = []
    ) throws -> Certificate {
        let leaf = try Certificate(derEncoded: AdversarialMatrix.bytes("leaf.der"))
        let algorithm = DERBuilder.sequence([DERBuilder.tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02])])
        let time = { (text: String) in DERBuilder.tlv(0x17, Array(text.utf8)) }
        let serialBytes = withUnsafeBytes(of: UInt32(serial).bigEndian) { [0x01] + Array($0) }
        let basicConstraints = DERBuilder.extension(
            [0x55, 0x1D, 0x13], critical: true, DERBuilder.sequence(ca ? [[0x01, 0x01, 0xFF]] : []))
        let tbs = DERBuilder.sequence([
            DERBuilder.tlv(0xA0, [0x02, 0x01, 0x02]), DERBuilder.tlv(0x02, serialBytes), algorithm, issuer,
            DERBuilder.sequence([time("290101000000Z"), time("401231235959Z")]), subject, leaf.publicKey.derEncoded,
            DERBuilder.tlv(0xA3, DERBuilder.sequence([basicConstraints] + extensions)),
        ])
        return try Certificate(derEncoded: DERBuilder.sequence([tbs, algorithm, DERBuilder.tlv(0x03, [0x00, 0x30, 0x00])]))
    }
}
