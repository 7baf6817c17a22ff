/// GeneralName and GeneralNames decoding (RFC 5280 §4.2.1.6).
enum GeneralNameParser {
    /// Decodes one GeneralName element.
    static func parse(_ node: DERNode, limits: Limits) throws(CertificateDecodingError) -> GeneralName {
        switch node.tag {
        case 0x81: return .email(try ia5(node, "rfc822Name"))
        case 0x82: return .dnsName(try ia5(node, "dNSName"))
        case 0x86: return .uri(try ia5(node, "uniformResourceIdentifier"))
        case 0x87: return .ipAddress(node.contentBytes)
        case 0xA4:
            var inner = try node.children()
            let name = try NameParser.parse(inner.read(DERTag.sequence, "directoryName"), limits: limits)
            try inner.expectEnd("directoryName")
            return .directoryName(name)
        default:
            guard node.tag & 0xC0 == 0x80 else {
                throw CertificateDecodingError(.malformedDER, "GeneralName: unexpected tag \(DERTag.describe(node.tag))")
            }
            return .other(tag: node.tag & 0x1F, contents: node.contentBytes)
        }
    }

    /// Decodes every GeneralName in `reader` until its end.
    static func parseAll(_ reader: inout DERReader, limits: Limits) throws(CertificateDecodingError) -> [GeneralName] {
        var names: [GeneralName] = []
        while let node = try reader.next() { names.append(try parse(node, limits: limits)) }
        return names
    }

    private static func ia5(_ node: DERNode, _ what: String) throws(CertificateDecodingError) -> String {
        guard node.contents.allSatisfy({ $0 < 0x80 }) else {
            throw CertificateDecodingError(.malformedDER, "\(what) is not IA5 (7-bit) text")
        }
        return String(decoding: node.contents, as: UTF8.self)
    }
}
