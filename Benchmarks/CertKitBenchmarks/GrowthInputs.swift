import CertKit

/// Hand-built DER for the growth benchmarks: certificates whose names, extensions or SANs grow to a given size,
/// and pools of distinct CAs. Signatures are junk (parsing and path building never look at them).
enum GrowthInputs {
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
    static func sequence(_ parts: [[UInt8]]) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }
    static func utf8(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }

    static let commonName: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x03]
    static let algorithm = sequence([[0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]])

    /// A Name of one-attribute RDNs.
    static func name(_ values: [String]) -> [UInt8] {
        sequence(values.map { tlv(0x31, sequence([commonName, utf8($0)])) })
    }

    /// A certificate (junk signature) with the given names, SPKI and extensions.
    static func certificate(issuer: [UInt8], subject: [UInt8], spki: [UInt8], serial: Int, extensions: [[UInt8]]) -> [UInt8] {
        let serialBytes: [UInt8] = [0x01, UInt8(truncatingIfNeeded: serial >> 24), UInt8(truncatingIfNeeded: serial >> 16),
                                    UInt8(truncatingIfNeeded: serial >> 8), UInt8(truncatingIfNeeded: serial)]
        var fields = [tlv(0xA0, [0x02, 0x01, 0x02]), tlv(0x02, serialBytes), algorithm, issuer,
                      sequence([tlv(0x17, Array("290101000000Z".utf8)), tlv(0x17, Array("401231235959Z".utf8))]),
                      subject, spki]
        if !extensions.isEmpty { fields.append(tlv(0xA3, sequence(extensions))) }
        return sequence([sequence(fields), algorithm, tlv(0x03, [0x00] + sequence([tlv(0x02, [0x01]), tlv(0x02, [0x01])]))])
    }

    /// What grows in a certificate.
    enum Shape: String, CaseIterable {
        /// One multi-valued RDN in the subject, the issuer the same attributes upper-cased and reversed (so the
        /// self-issued test needs the folded comparison).
        case names
        /// Distinct private extensions.
        case extensions
        /// DNS subjectAltNames.
        case sans
    }

    /// A certificate of about `bytes` bytes whose `shape` grows.
    static func growing(_ shape: Shape, bytes: Int, spki: [UInt8]) -> [UInt8] {
        let fixed = name(["fixed"])
        switch shape {
        case .names:
            let count = max(1, bytes / 40)
            let subject = (0..<count).map { sequence([commonName, utf8("name \($0)")]) }
            let issuer = (0..<count).reversed().map { sequence([commonName, utf8("NAME \($0)")]) }
            return certificate(issuer: sequence([tlv(0x31, issuer.flatMap { $0 })]),
                               subject: sequence([tlv(0x31, subject.flatMap { $0 })]), spki: spki, serial: 1, extensions: [])
        case .extensions:
            let count = max(1, bytes / 18)
            let extensions = (0..<count).map { index -> [UInt8] in
                // 1.3.6.1.4.1.55555.<index>: a distinct OID each (the last arc in minimal base 128).
                var arc: [UInt8] = [UInt8(index & 0x7F)]
                var rest = index >> 7
                while rest > 0 {
                    arc.insert(0x80 | UInt8(rest & 0x7F), at: 0)
                    rest >>= 7
                }
                return sequence([tlv(0x06, [0x2B, 0x06, 0x01, 0x04, 0x01, 0x83, 0xB2, 0x03] + arc), tlv(0x04, [0x05, 0x00])])
            }
            return certificate(issuer: fixed, subject: fixed, spki: spki, serial: 1, extensions: extensions)
        case .sans:
            let count = max(1, bytes / 22)
            let names = (0..<count).map { tlv(0x82, Array("host\($0).example.com".utf8)) }
            let san = sequence([[0x06, 0x03, 0x55, 0x1D, 0x11], tlv(0x04, sequence(names))])
            return certificate(issuer: fixed, subject: fixed, spki: spki, serial: 1, extensions: [san])
        }
    }

    /// `count` self-issued CAs with distinct names (`Distractor n`), parsed.
    static func distractors(_ count: Int, spki: [UInt8]) -> [Certificate] {
        (0..<count).map { index in
            let subject = name(["Distractor \(index)"])
            let der = certificate(issuer: subject, subject: subject, spki: spki, serial: index, extensions: [])
            do { return try Certificate(derEncoded: der) } catch { fail("distractor: \(error)") }
        }
    }
}
