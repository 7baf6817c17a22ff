/// AlgorithmIdentifier (RFC 5280 §4.1.1.2) decoding for signatures, checked against the core's allowlist
/// (``SignatureAlgorithm``). An identifier the allowlist refuses still decodes — the certificate can be
/// inspected — but gets no ``SignatureScheme``, so no signature under it ever verifies.
enum AlgorithmIdentifierParser {
    static let rsassaPSS = "1.2.840.113549.1.1.10"
    static let mgf1 = "1.2.840.113549.1.1.8"

    /// Digest OIDs as they appear inside RSASSA-PSS parameters.
    static let hashes: [String: HashAlgorithm] = [
        "1.2.840.113549.2.2": .md2, "1.2.840.113549.2.4": .md4, "1.2.840.113549.2.5": .md5,
        "1.3.14.3.2.26": .sha1, "2.16.840.1.101.3.4.2.4": .sha224, "2.16.840.1.101.3.4.2.1": .sha256,
        "2.16.840.1.101.3.4.2.2": .sha384, "2.16.840.1.101.3.4.2.3": .sha512,
    ]

    /// Digests RSASSA-PSS may use in a certificate (CA/B Forum BR 7.1.3.2; GnuTLS verifies no others).
    static let pssHashes: Set<HashAlgorithm> = [.sha256, .sha384, .sha512]

    /// The OID and the parameters element (if any) of an AlgorithmIdentifier SEQUENCE.
    static func parse(_ node: DERNode) throws(CertificateDecodingError) -> (oid: String, parameters: DERNode?) {
        var reader = try node.children()
        let oid = try reader.read(DERTag.objectIdentifier, "algorithm OID").objectIdentifier()
        let parameters = try reader.next()
        try reader.expectEnd("algorithm parameters")
        return (oid, parameters)
    }

    /// A SignatureAlgorithm, with its scheme when the allowlist accepts the OID and its parameters. The identifiers
    /// nearly every certificate carries come from ``common`` (decoded once, by ``decodeSignatureAlgorithm(_:)``).
    static func signatureAlgorithm(_ node: DERNode) throws(CertificateDecodingError) -> SignatureAlgorithm {
        let bytes = node.encodedView
        for entry in common where entry.encoded.count == bytes.count && entry.encoded.elementsEqual(bytes) {
            return entry
        }
        return try decodeSignatureAlgorithm(node)
    }

    /// The encodings of the signature AlgorithmIdentifiers certificates use most (SHA-2 with RSA and NULL
    /// parameters, ECDSA with SHA-2, Ed25519), most frequent first, each decoded by
    /// ``decodeSignatureAlgorithm(_:)`` when first needed: a lookup costs a few byte comparisons instead of an OID
    /// text and an allowlist lookup.
    static let common: [SignatureAlgorithm] = {
        let rsaNull: [[UInt8]] = [0x0B, 0x0C, 0x0D, 0x05].map { last in
            [0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, last, 0x05, 0x00]
        }
        let ecdsa: [[UInt8]] = [0x02, 0x03, 0x04].map { last in
            [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, last]
        }
        let ed25519: [[UInt8]] = [[0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70]]
        return (rsaNull.prefix(1) + ecdsa.prefix(1) + rsaNull.dropFirst() + ecdsa.dropFirst() + ed25519).compactMap { encoding in
            try? DERReader.read(encoding) { reader throws(CertificateDecodingError) -> SignatureAlgorithm? in
                guard let node = try reader.next(), reader.isAtEnd else { return nil }
                return try decodeSignatureAlgorithm(node)
            } ?? nil
        }
    }()

    /// ``signatureAlgorithm(_:)`` without the table of common identifiers.
    static func decodeSignatureAlgorithm(_ node: DERNode) throws(CertificateDecodingError) -> SignatureAlgorithm {
        let (oid, parameters) = try parse(node)
        let encoded = node.encoded
        guard let entry = SignatureAlgorithm.allowlist[oid] else {
            let name = SignatureAlgorithm.refusedNames[oid] ?? oid
            return SignatureAlgorithm(
                oid: oid, name: name, hash: nil, scheme: nil,
                rejection: "signature algorithm \(name) is not on certkit's allowlist", encoded: encoded)
        }
        if entry.family == .rsaPSS {
            switch pssParameters(parameters) {
            case .success(let (hash, salt)):
                return SignatureAlgorithm(
                    oid: oid, name: "rsassaPss", hash: hash, scheme: .rsaPSS(hash, saltLength: salt), rejection: nil,
                    encoded: encoded)
            case .failure(let reason):
                return SignatureAlgorithm(
                    oid: oid, name: "rsassaPss", hash: reason.hash, scheme: nil,
                    rejection: "RSASSA-PSS parameters refused: \(reason.message)", encoded: encoded)
            }
        }
        if let parameters, !(entry.allowsNullParameters && isNull(parameters)) {
            return SignatureAlgorithm(
                oid: oid, name: entry.name, hash: entry.hash, scheme: nil,
                rejection: "\(entry.name) with unexpected parameters", encoded: encoded)
        }
        return SignatureAlgorithm(
            oid: oid, name: entry.name, hash: entry.hash, scheme: entry.fixedScheme, rejection: nil, encoded: encoded)
    }

    struct PSSRefusal: Error {
        var message: String
        var hash: HashAlgorithm?
    }

    /// RSASSA-PSS-params (RFC 4055 §3.1) as certificates must use them: explicit, a SHA-1/SHA-2 digest, MGF1
    /// over the same digest, a salt as long as the digest, trailerField 1 — left out, as DER requires of a DEFAULT
    /// value (an explicit `trailerField 1` is refused, as pyca/cryptography and Chrome refuse it).
    static func pssParameters(_ parameters: DERNode?) -> Result<(HashAlgorithm, Int), PSSRefusal> {
        guard let parameters, parameters.tag == DERTag.sequence else {
            return .failure(PSSRefusal(message: "parameters absent", hash: nil))
        }
        do {
            var fields = try parameters.children()
            var hash = HashAlgorithm.sha1
            var mgfHash = HashAlgorithm.sha1
            var salt = 20
            var trailer = 1
            if let field = try fields.readIfPresent(DERTag.contextConstructed(0)) {
                var inner = try field.children()
                guard let found = try digest(inner.read(DERTag.sequence, "PSS hashAlgorithm")) else {
                    return .failure(PSSRefusal(message: "unknown digest", hash: nil))
                }
                try inner.expectEnd("PSS hashAlgorithm")
                hash = found
            }
            if let field = try fields.readIfPresent(DERTag.contextConstructed(1)) {
                var inner = try field.children()
                let (mgfOID, mgfParameters) = try parse(inner.read(DERTag.sequence, "PSS maskGenAlgorithm"))
                try inner.expectEnd("PSS maskGenAlgorithm")
                guard mgfOID == mgf1, let mgfParameters, mgfParameters.tag == DERTag.sequence,
                      let found = try digest(mgfParameters)
                else { return .failure(PSSRefusal(message: "mask generation is not MGF1 with a known digest", hash: hash)) }
                mgfHash = found
            }
            if let field = try fields.readIfPresent(DERTag.contextConstructed(2)) {
                var inner = try field.children()
                salt = try inner.read(DERTag.integer, "PSS saltLength").smallInteger()
                try inner.expectEnd("PSS saltLength")
            }
            if let field = try fields.readIfPresent(DERTag.contextConstructed(3)) {
                var inner = try field.children()
                trailer = try inner.read(DERTag.integer, "PSS trailerField").smallInteger()
                try inner.expectEnd("PSS trailerField")
                // DER omits a DEFAULT value (X.690 §11.5): trailerField 1 written out is not DER.
                guard trailer != 1 else {
                    return .failure(PSSRefusal(message: "trailerField 1 (the DEFAULT) encoded explicitly", hash: hash))
                }
            }
            try fields.expectEnd("RSASSA-PSS parameters")
            guard pssHashes.contains(hash) else { return .failure(PSSRefusal(message: "digest \(hash.rawValue)", hash: hash)) }
            guard mgfHash == hash else {
                return .failure(PSSRefusal(message: "MGF1 digest \(mgfHash.rawValue) differs from \(hash.rawValue)", hash: hash))
            }
            guard salt == hash.length else {
                return .failure(PSSRefusal(message: "salt length \(salt), expected \(hash.length)", hash: hash))
            }
            guard trailer == 1 else { return .failure(PSSRefusal(message: "trailerField \(trailer)", hash: hash)) }
            return .success((hash, salt))
        } catch {
            return .failure(PSSRefusal(message: "malformed (\(error.message))", hash: nil))
        }
    }

    /// The digest named by a digest AlgorithmIdentifier whose parameters are absent or NULL.
    private static func digest(_ node: DERNode) throws(CertificateDecodingError) -> HashAlgorithm? {
        let (oid, parameters) = try parse(node)
        if let parameters, !isNull(parameters) { return nil }
        return hashes[oid]
    }

    private static func isNull(_ node: DERNode) -> Bool { node.tag == DERTag.null && node.contentLength == 0 }
}
