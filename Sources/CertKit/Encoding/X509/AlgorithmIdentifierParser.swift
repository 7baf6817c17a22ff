/// AlgorithmIdentifier (RFC 5280 §4.1.1.2) decoding for signatures.
enum AlgorithmIdentifierParser {
    static let rsassaPSS = "1.2.840.113549.1.1.10"

    /// Digest OIDs as they appear inside RSASSA-PSS parameters.
    static let hashes: [String: HashAlgorithm] = [
        "1.2.840.113549.2.2": .md2, "1.2.840.113549.2.4": .md4, "1.2.840.113549.2.5": .md5,
        "1.3.14.3.2.26": .sha1, "2.16.840.1.101.3.4.2.4": .sha224, "2.16.840.1.101.3.4.2.1": .sha256,
        "2.16.840.1.101.3.4.2.2": .sha384, "2.16.840.1.101.3.4.2.3": .sha512,
    ]

    /// The OID and the parameters element (if any) of an AlgorithmIdentifier SEQUENCE.
    static func parse(_ node: DERNode) throws(CertificateDecodingError) -> (oid: String, parameters: DERNode?) {
        var reader = try node.children()
        let oid = try reader.read(DERTag.objectIdentifier, "algorithm OID").objectIdentifier()
        let parameters = try reader.next()
        try reader.expectEnd("algorithm parameters")
        return (oid, parameters)
    }

    /// A SignatureAlgorithm; for RSASSA-PSS the hash comes from the parameters (default SHA-1).
    static func signatureAlgorithm(_ node: DERNode) throws(CertificateDecodingError) -> SignatureAlgorithm {
        let (oid, parameters) = try parse(node)
        guard oid == rsassaPSS else { return SignatureAlgorithm(oid: oid) }
        var hash: HashAlgorithm? = .sha1
        if let parameters, parameters.tag == DERTag.sequence {
            var fields = try parameters.children()
            if let hashField = try fields.readIfPresent(DERTag.contextConstructed(0)) {
                var inner = try hashField.children()
                let hashOID = try parse(inner.read(DERTag.sequence, "PSS hashAlgorithm")).oid
                hash = hashes[hashOID]
            }
        }
        return SignatureAlgorithm(oid: oid, name: "rsassaPss", hash: hash)
    }
}
