/// Reads the certificates out of a PKCS#7 / CMS SignedData ContentInfo (RFC 5652), as in `.p7b`/`.p7c`
/// certs-only bundles. Signatures and signer infos are ignored.
enum PKCS7Parser {
    static let signedData = "1.2.840.113549.1.7.2"

    /// True when `node` (a SEQUENCE) starts with an OBJECT IDENTIFIER, as a ContentInfo does.
    static func looksLikeContentInfo(_ node: DERNode) -> Bool {
        guard node.tag == DERTag.sequence, var reader = try? node.children() else { return false }
        return reader.peekTag == DERTag.objectIdentifier && (try? reader.next()) != nil
    }

    /// The certificate SEQUENCEs in the SignedData's `certificates` field, in encoding order.
    static func certificateNodes(_ contentInfo: DERNode) throws(CertificateDecodingError) -> [DERNode] {
        var fields = try contentInfo.children()
        let type = try fields.read(DERTag.objectIdentifier, "PKCS#7 contentType").objectIdentifier()
        guard type == signedData else {
            throw CertificateDecodingError(.unsupportedFormat, "PKCS#7 content type \(type) is not SignedData")
        }
        var explicitContent = try fields.read(DERTag.contextConstructed(0), "PKCS#7 content").children()
        var signed = try explicitContent.read(DERTag.sequence, "SignedData").children()
        _ = try signed.read(DERTag.integer, "SignedData version")
        _ = try signed.read(DERTag.set, "SignedData digestAlgorithms")
        _ = try signed.read(DERTag.sequence, "SignedData encapContentInfo")
        var nodes: [DERNode] = []
        if let certificates = try signed.readIfPresent(DERTag.contextConstructed(0)) {
            var list = try certificates.children()
            while let choice = try list.next() {
                if choice.tag == DERTag.sequence { nodes.append(choice) }
            }
        }
        return nodes
    }
}
