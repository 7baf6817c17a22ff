/// What a DER file is, by the shape of its first few elements, when it is one of a certificate's common neighbours:
/// private keys (PKCS#1, PKCS#8, encrypted PKCS#8, SEC1), public keys, CSRs, CRLs, OCSP requests and responses,
/// PKCS#12 files, PKCS#7/CMS messages — so that a file given where another kind is expected is named for what it is
/// ("a private key (PKCS#8), not a certificate") instead of by the first ASN.1 field that does not fit.
///
/// Only the outer structure is read (a few elements, a few levels deep, through the bounded ``DERReader``); nothing
/// is decoded or trusted, and any input that does not fit a shape is nil.
package enum DERKind: Equatable, Sendable {
    case certificate
    case rsaPrivateKey
    case dsaPrivateKey
    case pkcs8PrivateKey
    case encryptedPrivateKey
    case ecPrivateKey
    case publicKey
    case certificateRequest
    case crl
    case ocspRequest
    case ocspResponse
    case pkcs12
    /// A PKCS#7 / CMS ContentInfo, with its content type's name.
    case pkcs7(String)

    /// The phrase for messages: `a private key (PKCS#8)`.
    package var description: String {
        switch self {
        case .certificate: "a certificate"
        case .rsaPrivateKey: "a private key (PKCS#1 RSA)"
        case .dsaPrivateKey: "a private key (DSA)"
        case .pkcs8PrivateKey: "a private key (PKCS#8)"
        case .encryptedPrivateKey: "an encrypted private key (PKCS#8)"
        case .ecPrivateKey: "a private key (SEC1 EC)"
        case .publicKey: "a public key (SubjectPublicKeyInfo)"
        case .certificateRequest: "a certificate signing request (PKCS#10)"
        case .crl: "a CRL"
        case .ocspRequest: "an OCSP request"
        case .ocspResponse: "an OCSP response"
        case .pkcs12: "a PKCS#12 file"
        case .pkcs7(let type): "a PKCS#7 message (\(type))"
        }
    }

    /// The most bytes looked at: the bound of every input.
    private static let maximumBytes = Limits.default.maxInputBytes

    /// The kind of the DER value `der` begins with, or nil when it fits none of the shapes.
    package static func identify(_ der: [UInt8]) -> DERKind? {
        guard !der.isEmpty, der.count <= maximumBytes, der[0] == DERTag.sequence else { return nil }
        let kind = try? DERReader.read(der) { (reader) throws(CertificateDecodingError) -> DERKind? in
            guard let top = try reader.next(), top.tag == DERTag.sequence else { return nil }
            return try identify(top)
        }
        return kind ?? nil
    }

    /// The kind of the SEQUENCE `top`.
    private static func identify(_ top: DERNode) throws(CertificateDecodingError) -> DERKind? {
        var fields = try top.children()
        guard let first = try fields.next() else { return nil }
        let second = try fields.next()
        let third = try fields.next()
        switch first.tag {
        case DERTag.enumerated:
            // OCSPResponse: responseStatus, [0] responseBytes.
            return second == nil || second?.tag == DERTag.contextConstructed(0) ? .ocspResponse : nil
        case DERTag.objectIdentifier:
            // ContentInfo: contentType, [0] content.
            guard second == nil || second?.tag == DERTag.contextConstructed(0) else { return nil }
            let oid = try first.objectIdentifier()
            guard let name = pkcs7Types[oid] else { return nil }
            return .pkcs7(name)
        case DERTag.integer:
            return try keyOrPKCS12(version: first, second, third, rest: &fields)
        case DERTag.sequence:
            guard let second else { return try isOCSPRequest(tbs: first) ? .ocspRequest : nil }
            if second.tag == DERTag.contextConstructed(0), third == nil {
                return try isOCSPRequest(tbs: first) ? .ocspRequest : nil
            }
            if second.tag == DERTag.octetString, third == nil, try isAlgorithmIdentifier(first) { return .encryptedPrivateKey }
            if second.tag == DERTag.bitString, third == nil, try isAlgorithmIdentifier(first) { return .publicKey }
            guard second.tag == DERTag.sequence, third?.tag == DERTag.bitString else { return nil }
            return try signedKind(tbs: first)
        default:
            return nil
        }
    }

    /// PKCS#1 and DSA keys (INTEGER 0, then INTEGERs), PKCS#8 (INTEGER 0|1, AlgorithmIdentifier, OCTET STRING), SEC1
    /// (INTEGER 1, OCTET STRING), PKCS#12 (INTEGER 3, ContentInfo).
    private static func keyOrPKCS12(
        version: DERNode, _ second: DERNode?, _ third: DERNode?, rest: inout DERReader
    ) throws(CertificateDecodingError) -> DERKind? {
        guard version.contentLength == 1, let second else { return nil }
        switch (version.contentByte(0), second.tag) {
        case (3, DERTag.sequence):
            return .pkcs12
        case (0, DERTag.sequence), (1, DERTag.sequence):
            guard third?.tag == DERTag.octetString else { return nil }
            return try isAlgorithmIdentifier(second) ? .pkcs8PrivateKey : nil
        case (1, DERTag.octetString):
            return .ecPrivateKey
        case (0, DERTag.integer):
            guard third?.tag == DERTag.integer else { return nil }
            var count = 3
            while let next = try rest.next() {
                guard next.tag == DERTag.integer, count < 16 else { return nil }
                count += 1
            }
            // RSAPrivateKey: version and 8 numbers (more with otherPrimeInfos); OpenSSL's DSA key: version and 5.
            return count >= 9 ? .rsaPrivateKey : count == 6 ? .dsaPrivateKey : nil
        default:
            return nil
        }
    }

    /// A signed envelope's kind by its signed part: a CSR (INTEGER 0, Name, SubjectPublicKeyInfo, [0]
    /// attributes), a CRL ([INTEGER 1], AlgorithmIdentifier, Name, Time), a certificate ([0] version, INTEGER,
    /// AlgorithmIdentifier, Name, Validity).
    private static func signedKind(tbs: DERNode) throws(CertificateDecodingError) -> DERKind? {
        guard tbs.tag == DERTag.sequence else { return nil }
        var fields = try tbs.children()
        var tags: [UInt8] = []
        while tags.count < 5, let next = try fields.next() { tags.append(next.tag) }
        let time: Set<UInt8> = [DERTag.utcTime, DERTag.generalizedTime]
        let sequence = DERTag.sequence
        if tags.count >= 4, tags[0] == DERTag.integer, tags[1] == sequence, tags[2] == sequence,
           tags[3] == DERTag.contextConstructed(0) {
            return .certificateRequest
        }
        let unversioned = tags.first == DERTag.integer && tags.count >= 2 && tags[1] == sequence
            && tags.count >= 4 && tags[2] == sequence && time.contains(tags[3]) ? Array(tags.dropFirst()) : tags
        if unversioned.count >= 3, unversioned[0] == sequence, unversioned[1] == sequence, time.contains(unversioned[2]) {
            return .crl
        }
        let certificateFields = tags.first == DERTag.contextConstructed(0) ? Array(tags.dropFirst()) : tags
        if certificateFields.count >= 4, certificateFields[0] == DERTag.integer, certificateFields[1] == sequence,
           certificateFields[2] == sequence, certificateFields[3] == sequence {
            return .certificate
        }
        return nil
    }

    /// TBSRequest: optional [0] version and [1] requestorName, then a requestList of Requests that each begin with
    /// a CertID (SEQUENCE { AlgorithmIdentifier, ... }).
    private static func isOCSPRequest(tbs: DERNode) throws(CertificateDecodingError) -> Bool {
        guard tbs.tag == DERTag.sequence else { return false }
        var fields = try tbs.children()
        var next = try fields.next()
        while let node = next, node.tag == DERTag.contextConstructed(0) || node.tag == DERTag.contextConstructed(1) {
            next = try fields.next()
        }
        guard let list = next, list.tag == DERTag.sequence else { return false }
        var requests = try list.children()
        guard let request = try requests.next(), request.tag == DERTag.sequence else { return false }
        var requestFields = try request.children()
        guard let certID = try requestFields.next(), certID.tag == DERTag.sequence else { return false }
        var certIDFields = try certID.children()
        guard let algorithm = try certIDFields.next(), try isAlgorithmIdentifier(algorithm) else { return false }
        return try certIDFields.next()?.tag == DERTag.octetString
    }

    /// True when `node` is a SEQUENCE that begins with an OBJECT IDENTIFIER.
    private static func isAlgorithmIdentifier(_ node: DERNode) throws(CertificateDecodingError) -> Bool {
        guard node.tag == DERTag.sequence else { return false }
        var fields = try node.children()
        return try fields.next()?.tag == DERTag.objectIdentifier
    }

    /// PKCS#7 / CMS content types.
    private static let pkcs7Types = [
        "1.2.840.113549.1.7.1": "data", "1.2.840.113549.1.7.2": "signedData", "1.2.840.113549.1.7.3": "envelopedData",
        "1.2.840.113549.1.7.5": "digestedData", "1.2.840.113549.1.7.6": "encryptedData",
        "1.2.840.113549.1.9.16.1.2": "authenticatedData",
    ]
}
