/// The `SIGNED{...}` envelope that certificates and CRLs share (RFC 5280 §4.1.1, §5.1.1): the signed part, the
/// signature algorithm and the signature value, read in one place for both parsers.
struct SignedEnvelope {
    /// The signed part (`tbsCertificate`, `tbsCertList`).
    let tbs: DERNode
    /// The outer AlgorithmIdentifier as encoded, to compare with the one inside the signed part.
    let outerAlgorithm: DERNode
    /// The outer signature algorithm.
    let signatureAlgorithm: SignatureAlgorithm
    /// The signature value, a view of the lent input (no copy).
    let signature: (bytes: UnsafeBufferPointer<UInt8>, unusedBits: Int)
    /// Where the signature value's bytes lie (offsets of the input the reader was lent).
    let signatureRange: Range<Int>

    /// Reads the three fields of `node` (a SEQUENCE); `tbsName` names the signed part and `prefix` the structure
    /// in error messages (`tbsCertList`, `CRL `).
    init(_ node: DERNode, tbsName: String, prefix: String) throws(CertificateDecodingError) {
        var outer = try node.children()
        tbs = try outer.read(DERTag.sequence, tbsName)
        outerAlgorithm = try outer.read(DERTag.sequence, prefix + "signatureAlgorithm")
        signatureAlgorithm = try AlgorithmIdentifierParser.signatureAlgorithm(outerAlgorithm)
        let signatureNode = try outer.read(DERTag.bitString, prefix + "signatureValue")
        signature = try signatureNode.bitStringContents()
        signatureRange = (signatureNode.contentStart + 1)..<signatureNode.end
        try outer.expectEnd(prefix + "signatureValue")
    }

    /// True when the algorithm inside the signed part is the outer one, byte for byte, and the signature is whole
    /// octets.
    func matches(innerAlgorithm: DERNode) -> Bool {
        innerAlgorithm.encodedView.elementsEqual(outerAlgorithm.encodedView) && signature.unusedBits == 0
    }
}
