/// The walk of ``PKCS12KeyDerivationBudget``: PFX (RFC 7292 §4), its MacData, the AuthenticatedSafe's ContentInfos
/// and, in the clear ones, the SafeBags (nested SafeContents too), charging every iteration count it meets.
enum PKCS12StructureWalk {
    static let data = "1.2.840.113549.1.7.1"
    static let signedData = "1.2.840.113549.1.7.2"
    static let encryptedData = "1.2.840.113549.1.7.6"
    static let shroudedKeyBag = "1.2.840.113549.1.12.10.1.2"
    static let safeContentsBag = "1.2.840.113549.1.12.10.1.6"
    static let pbes2 = "1.2.840.113549.1.5.13"
    static let pbkdf2 = "1.2.840.113549.1.5.12"
    static let pbmac1 = "1.2.840.113549.1.5.14"
    /// pkcs-12PbeIds (RFC 7292 §C: SHA-1 with RC4-128/40, 3DES, 2-key 3DES, RC2-128/40) and PBES1 (RFC 8018 §A.3:
    /// MD2/MD5/SHA-1 with DES or RC2): their parameters are a salt and an iteration count.
    static let saltAndCount: Set<String> = [
        "1.2.840.113549.1.12.1.1", "1.2.840.113549.1.12.1.2", "1.2.840.113549.1.12.1.3", "1.2.840.113549.1.12.1.4",
        "1.2.840.113549.1.12.1.5", "1.2.840.113549.1.12.1.6",
        "1.2.840.113549.1.5.1", "1.2.840.113549.1.5.3", "1.2.840.113549.1.5.4", "1.2.840.113549.1.5.6",
        "1.2.840.113549.1.5.10", "1.2.840.113549.1.5.11",
    ]
    /// The deepest nesting of safeContentsBags followed.
    static let maximumSafeContentsDepth = 4

    static func walk(pfx: [UInt8], budget: inout PKCS12KeyDerivationBudget) throws {
        let authenticatedSafe: [UInt8] = try reading(BERNormalizer.normalize(pfx)) { outer in
            var pfx = try outer.read(DERTag.sequence, "PFX").children()
            try outer.expectEnd("PFX")
            guard try pfx.read(DERTag.integer, "PFX version").smallInteger() == 3 else {
                throw IdentityError.malformed("the PKCS#12 version is not 3")
            }
            var authSafe = try pfx.read(DERTag.sequence, "authSafe").children()
            let type = try authSafe.readObjectIdentifier("authSafe contentType").objectIdentifier()
            guard type == data else {
                throw IdentityError.malformed(
                    type == signedData ? "public-key integrity (signedData) is not supported" : "authSafe content type \(type)")
            }
            let content = try octetString(explicitContent(&authSafe, "authSafe"))
            if let macData = try pfx.readIfPresent(DERTag.sequence) { try mac(macData, budget: &budget) }
            try pfx.expectEnd("PFX")
            return content
        }
        try reading(BERNormalizer.normalize(authenticatedSafe)) { outer in
            var contents = try outer.read(DERTag.sequence, "AuthenticatedSafe").children()
            try outer.expectEnd("AuthenticatedSafe")
            while let info = try contents.next() {
                var fields = try info.children()
                let type = try fields.readObjectIdentifier("ContentInfo contentType").objectIdentifier()
                switch type {
                case data:
                    let safeContents = try octetString(explicitContent(&fields, "data"))
                    try Self.safeContents(safeContents, depth: 0, budget: &budget)
                case encryptedData:
                    var encrypted = try explicitContent(&fields, "encryptedData").children()
                    _ = try encrypted.read(DERTag.integer, "EncryptedData version")
                    var info = try encrypted.read(DERTag.sequence, "EncryptedContentInfo").children()
                    _ = try info.readObjectIdentifier("EncryptedContentInfo contentType")
                    try encryption(info.read(DERTag.sequence, "contentEncryptionAlgorithm"), what: "an encrypted content", budget: &budget)
                default:
                    throw IdentityError.malformed("content type \(type) is not supported (only data and encryptedData)")
                }
                try fields.expectEnd("ContentInfo")
            }
        }
    }

    /// MacData: the count of its PKCS#12 KDF (DEFAULT 1) and, for PBMAC1 (RFC 9579), its PBKDF2 count.
    private static func mac(_ node: DERNode, budget: inout PKCS12KeyDerivationBudget) throws {
        var fields = try node.children()
        var digestInfo = try fields.read(DERTag.sequence, "MAC DigestInfo").children()
        let algorithm = try digestInfo.read(DERTag.sequence, "MAC algorithm")
        var algorithmFields = try algorithm.children()
        if try algorithmFields.readObjectIdentifier("MAC algorithm").objectIdentifier() == pbmac1 {
            var parameters = try algorithmFields.read(DERTag.sequence, "PBMAC1 parameters").children()
            try keyDerivation(parameters.read(DERTag.sequence, "PBMAC1 key derivation"), what: "the PKCS#12 MAC (PBMAC1)", budget: &budget)
        }
        _ = try fields.read(DERTag.octetString, "MAC salt")
        if let iterations = try fields.readIfPresent(DERTag.integer) {
            try budget.charge(iterations, what: "the PKCS#12 MAC")
        } else {
            try budget.charge(1, what: "the PKCS#12 MAC")
        }
        try fields.expectEnd("MacData")
    }

    /// A SafeContents: every shrouded key's encryption; nested SafeContents followed.
    private static func safeContents(_ bytes: [UInt8], depth: Int, budget: inout PKCS12KeyDerivationBudget) throws {
        guard depth <= maximumSafeContentsDepth else {
            throw IdentityError.malformed("safeContentsBags nested deeper than \(maximumSafeContentsDepth) levels")
        }
        var nested: [[UInt8]] = []
        try reading(BERNormalizer.normalize(bytes)) { outer in
            var bags = try outer.read(DERTag.sequence, "SafeContents").children()
            try outer.expectEnd("SafeContents")
            while let bag = try bags.next() {
                var fields = try bag.children()
                let type = try fields.readObjectIdentifier("SafeBag bagId").objectIdentifier()
                let value = try explicitContent(&fields, "SafeBag")
                if type == shroudedKeyBag {
                    var key = try value.children()
                    try encryption(key.read(DERTag.sequence, "EncryptedPrivateKeyInfo algorithm"), what: "a shrouded key", budget: &budget)
                } else if type == safeContentsBag {
                    nested.append(value.encoded)
                }
            }
        }
        for inner in nested { try safeContents(inner, depth: depth + 1, budget: &budget) }
    }

    /// A password-based encryption AlgorithmIdentifier: its iteration count, charged.
    static func encryption(_ node: DERNode, what: String, budget: inout PKCS12KeyDerivationBudget) throws {
        var fields = try node.children()
        let algorithm = try fields.readObjectIdentifier("encryption algorithm").objectIdentifier()
        if saltAndCount.contains(algorithm) {
            var parameters = try fields.read(DERTag.sequence, "PBE parameters").children()
            _ = try parameters.read(DERTag.octetString, "PBE salt")
            try budget.charge(parameters.read(DERTag.integer, "PBE iteration count"), what: what)
        } else if algorithm == pbes2 {
            var parameters = try fields.read(DERTag.sequence, "PBES2 parameters").children()
            try keyDerivation(parameters.read(DERTag.sequence, "PBES2 key derivation"), what: what, budget: &budget)
        } else {
            throw IdentityError.malformed("\(what) is encrypted with \(algorithm), not a password-based scheme certkit knows")
        }
    }

    /// A PBES2/PBMAC1 key derivation: PBKDF2 only (scrypt and others are refused), its count charged.
    private static func keyDerivation(_ node: DERNode, what: String, budget: inout PKCS12KeyDerivationBudget) throws {
        var fields = try node.children()
        let algorithm = try fields.readObjectIdentifier("key derivation").objectIdentifier()
        guard algorithm == pbkdf2 else {
            throw IdentityError.malformed("\(what) derives its key with \(algorithm), not PBKDF2")
        }
        var parameters = try fields.read(DERTag.sequence, "PBKDF2 parameters").children()
        _ = try parameters.next()  // salt: specified OCTET STRING or otherSource AlgorithmIdentifier
        try budget.charge(parameters.read(DERTag.integer, "PBKDF2 iteration count"), what: what)
    }

    /// The content of `[0] EXPLICIT` that ends a ContentInfo or SafeBag.
    private static func explicitContent(_ fields: inout DERReader, _ what: String) throws -> DERNode {
        var wrapper = try fields.read(DERTag.contextConstructed(0), "\(what) content").children()
        guard let content = try wrapper.next() else { throw IdentityError.malformed("empty \(what) content") }
        try wrapper.expectEnd("\(what) content")
        return content
    }

    /// The octets of an OCTET STRING (BER pieces were joined by ``BERNormalizer``).
    private static func octetString(_ node: DERNode) throws -> [UInt8] {
        guard node.tag == DERTag.octetString else {
            throw IdentityError.malformed("expected an OCTET STRING, found \(DERTag.describe(node.tag))")
        }
        return node.contentBytes
    }

    /// ``DERReader/read(_:_:)`` for a body that may also throw an ``IdentityError``.
    @discardableResult
    static func reading<Result>(_ bytes: [UInt8], _ body: (inout DERReader) throws -> Result) throws -> Result {
        var failure: (any Error)?
        let result: Result? = try DERReader.read(bytes) { reader throws(CertificateDecodingError) -> Result? in
            do {
                return try body(&reader)
            } catch let error as CertificateDecodingError {
                throw error
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        guard let result else { throw BERNormalizer.malformed }
        return result
    }
}
