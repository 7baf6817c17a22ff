/// Decodes an X.501 Name (SEQUENCE OF RDN, each a SET OF AttributeTypeAndValue), with at most
/// ``Limits/maxAttributesPerName`` attributes over all its RDNs.
///
/// ``parse(_:limits:)`` checks the whole structure (tags, OIDs, one value per attribute, the bound) and keeps
/// the encoding; the attributes' text is made on first use (``relativeNames(ofAccepted:)``), by the same walk, so a
/// name that only has to be compared byte for byte (a pool certificate that is never a candidate issuer) costs no
/// strings at all.
enum NameParser {
    static func parse(_ node: DERNode, limits: Limits) throws(CertificateDecodingError) -> DistinguishedName {
        _ = try walk(node, maxAttributes: limits.maxAttributesPerName, materialize: false)
        return DistinguishedName(acceptedEncoding: node.encoded)
    }

    /// The attributes of a Name that ``parse(_:limits:)`` accepted (`der` is the encoding it kept).
    static func relativeNames(ofAccepted der: [UInt8]) -> [[DistinguishedName.Attribute]] {
        do throws(CertificateDecodingError) {
            return try DERReader.read(der) { reader throws(CertificateDecodingError) in
                guard let node = try reader.next() else { preconditionFailure("an accepted Name has no encoding") }
                return try walk(node, maxAttributes: .max, materialize: true)
            }
        } catch {
            // The walk that accepted these immutable bytes is this one: it cannot fail on them now.
            preconditionFailure("an accepted Name no longer decodes: \(error)")
        }
    }

    /// One walk for both passes: every check on every pass; attributes made only when `materialize`.
    private static func walk(
        _ node: DERNode, maxAttributes: Int, materialize: Bool
    ) throws(CertificateDecodingError) -> [[DistinguishedName.Attribute]] {
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
            var membersInRDN = 0
            while let member = try members.next() {
                count += 1
                membersInRDN += 1
                guard count <= maxAttributes else {
                    throw .limit("a name has more than \(maxAttributes) attributes", "maxAttributesPerName")
                }
                guard member.tag == DERTag.sequence else {
                    throw CertificateDecodingError(.malformedDER, "AttributeTypeAndValue: expected SEQUENCE")
                }
                var pair = try member.children()
                let type = try pair.readObjectIdentifier("attribute type")
                guard let value = try pair.next() else {
                    throw CertificateDecodingError(.malformedDER, "attribute \(MessageText.line(try type.objectIdentifier())) has no value")
                }
                try pair.expectEnd("attribute value")
                if materialize {
                    attributes.append(DistinguishedName.Attribute(
                        oid: try type.objectIdentifier(), valueTag: value.tag, value: DirectoryString.text(value)))
                }
            }
            guard membersInRDN > 0 else {
                throw CertificateDecodingError(.malformedDER, "empty RelativeDistinguishedName")
            }
            if materialize { relativeNames.append(attributes) }
        }
        return relativeNames
    }
}
