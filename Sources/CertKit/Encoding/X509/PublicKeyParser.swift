/// SubjectPublicKeyInfo decoding: algorithm and key size.
enum PublicKeyParser {
    static let rsaEncryption = "1.2.840.113549.1.1.1"
    static let rsassaPSS = "1.2.840.113549.1.1.10"
    static let ecPublicKey = "1.2.840.10045.2.1"
    static let ed25519 = "1.3.101.112"
    static let ed448 = "1.3.101.113"
    static let dsa = "1.2.840.10040.4.1"

    /// Named curves by OID: OpenSSL's short name and the field size in bits.
    static let curves: [String: (name: String, bits: Int)] = [
        "1.2.840.10045.3.1.7": ("prime256v1", 256),
        "1.3.132.0.34": ("secp384r1", 384),
        "1.3.132.0.35": ("secp521r1", 521),
        "1.3.132.0.10": ("secp256k1", 256),
        "1.2.840.10045.3.1.1": ("prime192v1", 192),
        "1.3.132.0.33": ("secp224r1", 224),
        "1.3.36.3.3.2.8.1.1.7": ("brainpoolP256r1", 256),
        "1.3.36.3.3.2.8.1.1.11": ("brainpoolP384r1", 384),
        "1.3.36.3.3.2.8.1.1.13": ("brainpoolP512r1", 512),
    ]

    static func parse(_ node: DERNode) throws(CertificateDecodingError) -> PublicKeyInfo {
        var fields = try node.children()
        let (oid, parameters) = try AlgorithmIdentifierParser.parse(fields.read(DERTag.sequence, "SPKI algorithm"))
        let keyBits = try fields.read(DERTag.bitString, "subjectPublicKey").bitString()
        try fields.expectEnd("subjectPublicKeyInfo")
        let algorithm: PublicKeyInfo.Algorithm
        switch oid {
        case rsaEncryption, rsassaPSS:
            algorithm = .rsa(modulusBits: try rsaModulusBits(keyBits.bytes))
        case ecPublicKey:
            guard let parameters, parameters.tag == DERTag.objectIdentifier else {
                algorithm = .ec(curve: PublicKeyInfo.explicitCurve, bits: pointBits(keyBits.bytes))
                break
            }
            let curveOID = try parameters.objectIdentifier()
            if let curve = curves[curveOID] {
                algorithm = .ec(curve: curve.name, bits: curve.bits)
            } else {
                algorithm = .ec(curve: curveOID, bits: pointBits(keyBits.bytes))
            }
        case ed25519: algorithm = .ed25519
        case ed448: algorithm = .ed448
        case dsa:
            var bits = 0
            if let parameters, parameters.tag == DERTag.sequence {
                var domain = try parameters.children()
                bits = try bitLength(domain.read(DERTag.integer, "DSA p").integerBytes())
            }
            algorithm = .dsa(bits: bits)
        default:
            algorithm = .other(oid: oid)
        }
        return PublicKeyInfo(algorithm: algorithm, derEncoded: node.encoded)
    }

    /// The bit length of an RSAPublicKey's modulus.
    static func rsaModulusBits(_ key: [UInt8]) throws(CertificateDecodingError) -> Int {
        var outer = DERReader(key)
        var fields = try outer.read(DERTag.sequence, "RSAPublicKey").children()
        try outer.expectEnd("RSAPublicKey")
        let modulus = try fields.read(DERTag.integer, "RSA modulus").integerBytes()
        _ = try fields.read(DERTag.integer, "RSA exponent")
        try fields.expectEnd("RSAPublicKey")
        return bitLength(modulus)
    }

    /// The number of significant bits of an unsigned big-endian integer.
    static func bitLength(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
    }

    /// The field size implied by an uncompressed or compressed EC point.
    static func pointBits(_ point: [UInt8]) -> Int {
        guard let format = point.first else { return 0 }
        switch format {
        case 0x04: return (point.count - 1) / 2 * 8
        case 0x02, 0x03: return (point.count - 1) * 8
        default: return 0
        }
    }
}
