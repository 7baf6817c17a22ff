/// Text of attribute values: the string types decoded to Swift strings, anything else as `#` + hex of
/// the complete DER encoding (as RFC 4514 §2.4 prints values it cannot show as strings).
enum DirectoryString {
    /// The tags decoded as text.
    static let stringTags: Set<UInt8> = [
        DERTag.utf8String, DERTag.printableString, DERTag.teletexString, DERTag.ia5String,
        DERTag.universalString, DERTag.bmpString, 0x12 /* NumericString */, 0x1A /* VisibleString */,
    ]

    static func text(_ node: DERNode) -> String {
        if let decoded = decode(tag: node.tag, node.contents) { return decoded }
        return "#" + Hex.encode(node.encoded)
    }

    /// The text of a string value, or nil for non-string tags and invalid encodings.
    static func decode<Bytes: RandomAccessCollection<UInt8>>(tag: UInt8, _ bytes: Bytes) -> String? where Bytes.Index == Int {
        switch tag {
        case DERTag.utf8String:
            return String(validating: bytes, as: UTF8.self)
        case DERTag.printableString, DERTag.ia5String, 0x12, 0x1A:
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        case DERTag.teletexString:
            // T.61 in theory; Latin-1 in practice, as OpenSSL shows it.
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case DERTag.bmpString:
            guard bytes.count % 2 == 0 else { return nil }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = bytes.startIndex
            while index < bytes.endIndex {
                units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            return String(validating: units, as: UTF16.self)
        case DERTag.universalString:
            guard bytes.count % 4 == 0 else { return nil }
            var scalars = String.UnicodeScalarView()
            var index = bytes.startIndex
            while index < bytes.endIndex {
                let value = UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16
                    | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
                guard let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
                index += 4
            }
            return String(scalars)
        default:
            return nil
        }
    }
}
