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
        let keyBits = try fields.read(DERTag.bitString, "subjectPublicKey").bitStringContents()
        try fields.expectEnd("subjectPublicKeyInfo")
        let algorithm: PublicKeyInfo.Algorithm
        var problem: String? = keyBits.unusedBits == 0 ? nil : "the subjectPublicKey BIT STRING has unused bits"
        switch oid {
        case rsaEncryption, rsassaPSS:
            let key = try rsaKey(Array(keyBits.bytes))
            algorithm = .rsa(modulusBits: key.modulusBits)
            problem = problem ?? key.problem
            if oid == rsaEncryption, parameters?.tag != DERTag.null || parameters?.contentLength != 0 {
                problem = problem ?? "rsaEncryption parameters are not NULL"
            } else if oid == rsassaPSS, let parameters, parameters.tag != DERTag.sequence {
                problem = problem ?? "RSASSA-PSS key parameters are not a SEQUENCE"
            }
        case ecPublicKey:
            guard let parameters, parameters.tag == DERTag.objectIdentifier else {
                algorithm = .ec(curve: PublicKeyInfo.explicitCurve, bits: pointBits(keyBits.bytes))
                break
            }
            let curveOID = try parameters.objectIdentifier()
            if let curve = curves[curveOID] {
                algorithm = .ec(curve: curve.name, bits: curve.bits)
                problem = problem ?? ecPointProblem(keyBits.bytes, fieldBits: curve.bits)
            } else {
                algorithm = .ec(curve: curveOID, bits: pointBits(keyBits.bytes))
                problem = problem ?? ecPointProblem(keyBits.bytes, fieldBits: nil)
            }
        case ed25519, ed448:
            algorithm = oid == ed25519 ? .ed25519 : .ed448
            let length = oid == ed25519 ? 32 : 57
            if parameters != nil { problem = problem ?? "EdDSA key parameters are present (RFC 8410 §3: absent)" }
            if keyBits.bytes.count != length { problem = problem ?? "EdDSA key is not \(length) bytes long" }
            if keyBits.bytes.count == length, let point = EdwardsPointEncoding.problem(Array(keyBits.bytes)[...], ed448: oid == ed448) {
                problem = problem ?? "EdDSA key: \(point)"
            }
        case dsa:
            var bits = 0
            if let parameters, parameters.tag == DERTag.sequence {
                let key = try dsaKey(parameters, publicKey: keyBits.bytes)
                bits = key.primeBits
                problem = problem ?? key.problem
            }
            algorithm = .dsa(bits: bits)
        default:
            algorithm = .other(oid: oid)
        }
        return PublicKeyInfo(
            algorithm: algorithm, derEncoded: node.encoded, encodingProblem: problem, isRSASSAPSSKey: oid == rsassaPSS)
    }

    /// The bit length of an RSAPublicKey's modulus, and what is wrong with the key's integers, if anything
    /// (RFC 8017 §A.1.1: a positive odd modulus, a positive exponent above 1; an RSA exponent is odd, since it is
    /// coprime to the even λ(n)), or with their sizes (``Limits/maxRSAModulusBits``,
    /// ``Limits/maxRSAExponentBits``: a signature is verified only with a key whose cost is bounded).
    static func rsaKey(_ key: [UInt8]) throws(CertificateDecodingError) -> (modulusBits: Int, problem: String?) {
        try DERReader.read(key) { outer throws(CertificateDecodingError) in
            var fields = try outer.read(DERTag.sequence, "RSAPublicKey").children()
            try outer.expectEnd("RSAPublicKey")
            let modulus = try fields.read(DERTag.integer, "RSA modulus").integerContents()
            let exponent = try fields.read(DERTag.integer, "RSA exponent").integerContents()
            try fields.expectEnd("RSAPublicKey")
            var problem: String?
            let exponentFirst = exponent[exponent.startIndex]
            if modulus[modulus.startIndex] & 0x80 != 0 || modulus[modulus.endIndex - 1] & 1 == 0 {
                problem = "the RSA modulus is not a positive odd integer"
            } else if exponentFirst & 0x80 != 0 || (exponent.count == 1 && exponentFirst < 3) {
                problem = "the RSA public exponent is not a positive integer above 1"
            } else if exponent[exponent.endIndex - 1] & 1 == 0 {
                problem = "the RSA public exponent is even"
            } else if bitLength(exponent) > Limits.maxRSAExponentBits {
                problem = "the RSA public exponent is longer than \(Limits.maxRSAExponentBits) bits (Limits.maxRSAExponentBits)"
            } else if bitLength(modulus) > Limits.maxRSAModulusBits {
                problem = "the RSA modulus is longer than \(Limits.maxRSAModulusBits) bits (Limits.maxRSAModulusBits)"
            }
            return (bitLength(modulus), problem)
        }
    }

    /// The bit length of a DSA key's p, and what is wrong with its domain parameters and public value, if anything
    /// (FIPS 186-4 §4.2, RFC 3279 §2.3.2): p positive, odd and at most ``Limits/maxDSAPrimeBits``; q of 160, 224 or
    /// 256 bits (the sizes FIPS 186-4 defines, the only ones OpenSSL verifies with); 1 < g < p; 1 < y < p.
    static func dsaKey<Bytes: RandomAccessCollection<UInt8>>(
        _ parameters: DERNode, publicKey: Bytes
    ) throws(CertificateDecodingError) -> (primeBits: Int, problem: String?) where Bytes.Index == Int {
        var domain = try parameters.children()
        let p = try domain.read(DERTag.integer, "DSA p").integerContents()
        let q = try domain.read(DERTag.integer, "DSA q").integerContents()
        let g = try domain.read(DERTag.integer, "DSA g").integerContents()
        try domain.expectEnd("DSA parameters")
        let primeBits = bitLength(p)
        let problem: String? = try DERReader.read(Array(publicKey)) { outer throws(CertificateDecodingError) in
            let y = try outer.read(DERTag.integer, "DSA public key").integerContents()
            try outer.expectEnd("DSA public key")
            if p[p.startIndex] & 0x80 != 0 || p[p.endIndex - 1] & 1 == 0 { return "the DSA p is not a positive odd integer" }
            if primeBits > Limits.maxDSAPrimeBits {
                return "the DSA p is longer than \(Limits.maxDSAPrimeBits) bits (Limits.maxDSAPrimeBits)"
            }
            if q[q.startIndex] & 0x80 != 0 || ![160, 224, 256].contains(bitLength(q)) {
                return "the DSA q is not of 160, 224 or 256 bits"
            }
            if !isAboveOne(g) || !isBelow(g, p) { return "the DSA g is not between 1 and p" }
            if !isAboveOne(y) || !isBelow(y, p) { return "the DSA public value is not between 1 and p" }
            return nil
        }
        return (primeBits, problem)
    }

    /// True when the INTEGER contents `value` (minimal, two's complement) are a positive number above 1.
    private static func isAboveOne(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        value[value.startIndex] & 0x80 == 0 && (bitLength(value) > 1)
    }

    /// True when the positive INTEGER contents `value` are below the positive INTEGER contents `bound`.
    private static func isBelow(_ value: UnsafeBufferPointer<UInt8>, _ bound: UnsafeBufferPointer<UInt8>) -> Bool {
        let a = value.drop { $0 == 0 }, b = bound.drop { $0 == 0 }
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }

    /// What is wrong with an EC public key point, if anything: certkit accepts only the uncompressed form
    /// (RFC 5480 §2.2: `04 || X || Y`, each coordinate the field size in bytes); compressed and hybrid points,
    /// and the point at infinity, are rejected, as pyca/cryptography and GnuTLS reject them.
    static func ecPointProblem<Bytes: RandomAccessCollection<UInt8>>(_ point: Bytes, fieldBits: Int?) -> String? {
        guard point.first == 0x04 else {
            return point.first.map { "the EC point is not in uncompressed form (first octet \(DisplayText.hex(UInt32($0), digits: 2)))" }
                ?? "the EC point is empty"
        }
        if let fieldBits, point.count != 1 + 2 * ((fieldBits + 7) / 8) { return "the EC point has the wrong length for its curve" }
        if fieldBits == nil, point.count % 2 == 0 { return "the EC point has the wrong length" }
        return nil
    }

    /// The number of significant bits of an unsigned big-endian integer.
    static func bitLength<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Int where Bytes.Index == Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.endIndex - first - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
    }

    /// The field size implied by an uncompressed or compressed EC point.
    static func pointBits<Bytes: RandomAccessCollection<UInt8>>(_ point: Bytes) -> Int {
        guard let format = point.first else { return 0 }
        switch format {
        case 0x04: return (point.count - 1) / 2 * 8
        case 0x02, 0x03: return (point.count - 1) * 8
        default: return 0
        }
    }
}
