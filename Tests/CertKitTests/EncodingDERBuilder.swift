@testable import CertKit

/// Builds DER by hand for tests that need encodings no tool produces (duplicates, broken extensions, ...).
enum DERBuilder {
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var value = count
        while value > 0 {
            bytes.insert(UInt8(value & 0xFF), at: 0)
            value >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func tlv(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] { [tag] + length(contents.count) + contents }
    static func sequence(_ elements: [[UInt8]]) -> [UInt8] { tlv(0x30, elements.flatMap { $0 }) }
    static func set(_ elements: [[UInt8]]) -> [UInt8] { tlv(0x31, elements.flatMap { $0 }) }

    /// An Extension SEQUENCE.
    static func `extension`(_ oid: [UInt8], critical: Bool = false, _ value: [UInt8]) -> [UInt8] {
        sequence([tlv(0x06, oid)] + (critical ? [[0x01, 0x01, 0xFF]] : []) + [tlv(0x04, value)])
    }

    /// The encoded fields of `certificate`'s tbsCertificate, and the encoded elements after it (the signature
    /// algorithm and value).
    private static func split(_ certificate: [UInt8]) throws -> (fields: [[UInt8]], rest: [[UInt8]]) {
        try DERReader.read(certificate) { top throws(CertificateDecodingError) in
            var outer = try top.read(DERTag.sequence, "certificate").children()
            let tbs = try outer.read(DERTag.sequence, "tbs")
            var rest: [[UInt8]] = []
            while let node = try outer.next() { rest.append(node.encoded) }
            var fields = try tbs.children()
            var kept: [[UInt8]] = []
            while let node = try fields.next() { kept.append(node.encoded) }
            return (kept, rest)
        }
    }

    /// `certificate` with its extensions replaced by `extensions` (the signature is left as is: it no longer
    /// verifies, which parsing does not care about).
    static func replacingExtensions(of certificate: [UInt8], with extensions: [[UInt8]]) throws -> [UInt8] {
        let (fields, rest) = try split(certificate)
        var kept = fields.filter { $0.first != 0xA3 }
        if !kept.contains(where: { $0.first == 0xA0 }) { kept.insert(tlv(0xA0, [0x02, 0x01, 0x02]), at: 0) }
        let newTBS = sequence(kept + [tlv(0xA3, sequence(extensions))])
        return sequence([newTBS] + rest)
    }

    /// `certificate` with the tbsCertificate field at `index` (0 version, 1 serial, …, 5 subject, 6
    /// subjectPublicKeyInfo) replaced by `field`; the signature is left as is.
    static func replacingTBSField(of certificate: [UInt8], at index: Int, with field: [UInt8]) throws -> [UInt8] {
        let (fields, rest) = try split(certificate)
        var replaced = fields
        replaced[index] = field
        return sequence([sequence(replaced)] + rest)
    }
}
