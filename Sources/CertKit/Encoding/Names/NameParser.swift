/// Decodes an X.501 Name (SEQUENCE OF RDN, each a SET OF AttributeTypeAndValue), with at most
/// ``Limits/maxAttributesPerName`` attributes over all its RDNs.
enum NameParser {
    static func parse(_ node: DERNode, limits: Limits) throws(CertificateDecodingError) -> DistinguishedName {
        guard node.tag == DERTag.sequence else {
            throw CertificateDecodingError(.malformedDER, "Name: expected SEQUENCE, found \(DERTag.describe(node.tag))")
        }
        var rdns = try node.children()
        var relativeNames: [[DistinguishedName.Attribute]] = []
        var count = 0
        while let rdn = try rdns.next() {
            guard rdn.tag == DERTag.set else {
                throw CertificateDecodingError(.malformedDER, "RelativeDistinguishedName: expected SET, found \(DERTag.describe(rdn.tag))")
            }
            var members = try rdn.children()
            var attributes: [DistinguishedName.Attribute] = []
            while let member = try members.next() {
                count += 1
                guard count <= limits.maxAttributesPerName else {
                    throw .limit("a name has more than \(limits.maxAttributesPerName) attributes", "maxAttributesPerName")
                }
                guard member.tag == DERTag.sequence else {
                    throw CertificateDecodingError(.malformedDER, "AttributeTypeAndValue: expected SEQUENCE")
                }
                var pair = try member.children()
                let oid = try pair.read(DERTag.objectIdentifier, "attribute type").objectIdentifier()
                guard let value = try pair.next() else {
                    throw CertificateDecodingError(.malformedDER, "attribute \(MessageText.line(oid)) has no value")
                }
                try pair.expectEnd("attribute value")
                attributes.append(DistinguishedName.Attribute(
                    oid: oid, valueTag: value.tag, value: DirectoryString.text(value)))
            }
            guard !attributes.isEmpty else {
                throw CertificateDecodingError(.malformedDER, "empty RelativeDistinguishedName")
            }
            relativeNames.append(attributes)
        }
        return DistinguishedName(derEncoded: node.encoded, relativeNames: relativeNames)
    }
}
