import Foundation

/// Decodes an OCSPResponse (RFC 6960 §4.2.1) and its BasicOCSPResponse.
enum OCSPResponseParser {
    /// id-pkix-ocsp-basic.
    static let basicResponseType = "1.3.6.1.5.5.7.48.1.1"
    /// Extensions certkit understands in a response or an answer: the nonce (it only echoes the request's).
    static let understoodExtensions: Set<String> = ["1.3.6.1.5.5.7.48.1.2"]
    /// The hash algorithms of a certID certkit computes.
    static let certIDHashes: [String: DigestAlgorithm] = ["1.3.14.3.2.26": .sha1, "2.16.840.1.101.3.4.2.1": .sha256]

    static func parse(_ der: [UInt8], limits: Limits) throws(CertificateDecodingError) -> OCSPResponse {
        guard der.count <= limits.maxInputBytes else {
            throw .limit("an OCSP response of \(der.count) bytes is larger than \(limits.maxInputBytes)", "maxInputBytes")
        }
        return try DERReader.read(der) { top throws(CertificateDecodingError) in try parse(&top, limits: limits) }
    }

    /// Parses the response `top` reads (all of the lent input).
    private static func parse(_ top: inout DERReader, limits: Limits) throws(CertificateDecodingError) -> OCSPResponse {
        let response = try top.read(DERTag.sequence, "OCSPResponse SEQUENCE")
        try top.expectEnd("the OCSP response")
        var fields = try response.children()
        let statusNode = try fields.read(DERTag.enumerated, "responseStatus")
        guard let status = OCSPResponseStatus(rawValue: try statusNode.smallInteger()) else {
            throw CertificateDecodingError(.invalidCertificate, "unknown OCSP responseStatus")
        }
        let explicitBytes = try fields.readIfPresent(DERTag.contextConstructed(0))
        try fields.expectEnd("OCSPResponse")
        guard status == .successful else {
            return OCSPResponse(derEncoded: response.encoded, status: status, basic: nil)
        }
        guard let explicitBytes else {
            throw CertificateDecodingError(.malformedDER, "a successful OCSP response without responseBytes")
        }
        var wrapper = try explicitBytes.children()
        var responseBytes = try wrapper.read(DERTag.sequence, "responseBytes").children()
        try wrapper.expectEnd("responseBytes")
        let type = try responseBytes.read(DERTag.objectIdentifier, "responseType").objectIdentifier()
        guard type == basicResponseType else {
            throw CertificateDecodingError(.unsupportedFormat, "OCSP response type \(type) is not id-pkix-ocsp-basic")
        }
        let octets = try responseBytes.read(DERTag.octetString, "response OCTET STRING")
        try responseBytes.expectEnd("responseBytes")
        let basic = try parseBasic(octets.contentBytes, limits: limits)
        return OCSPResponse(derEncoded: response.encoded, status: status, basic: basic)
    }

    /// A BasicOCSPResponse.
    private static func parseBasic(_ der: [UInt8], limits: Limits) throws(CertificateDecodingError) -> BasicOCSPResponse {
        try DERReader.read(der) { top throws(CertificateDecodingError) in try parseBasic(&top, limits: limits) }
    }

    /// Parses the BasicOCSPResponse `top` reads (all of the lent input).
    private static func parseBasic(
        _ top: inout DERReader, limits: Limits
    ) throws(CertificateDecodingError) -> BasicOCSPResponse {
        let basic = try top.read(DERTag.sequence, "BasicOCSPResponse")
        try top.expectEnd("BasicOCSPResponse")
        var outer = try basic.children()
        let tbs = try outer.read(DERTag.sequence, "tbsResponseData")
        let algorithm = try AlgorithmIdentifierParser.signatureAlgorithm(
            outer.read(DERTag.sequence, "OCSP signatureAlgorithm"))
        let signature = try outer.read(DERTag.bitString, "OCSP signature").bitString()
        var certificates: [Certificate] = []
        if let explicitCerts = try outer.readIfPresent(DERTag.contextConstructed(0)) {
            certificates = try responderCertificates(explicitCerts, limits: limits)
        }
        try outer.expectEnd("BasicOCSPResponse")

        var data = try tbs.children()
        if let version = try data.readIfPresent(DERTag.contextConstructed(0)) {
            var inner = try version.children()
            guard try inner.read(DERTag.integer, "ResponseData version").smallInteger() == 0 else {
                throw CertificateDecodingError(.invalidCertificate, "unsupported OCSP ResponseData version")
            }
        }
        guard let idNode = try data.next() else { throw CertificateDecodingError(.malformedDER, "missing responderID") }
        let responderID = try parseResponderID(idNode, limits: limits)
        let producedAt = try data.read(DERTag.generalizedTime, "producedAt").time()
        var list = try data.read(DERTag.sequence, "responses").children()
        var responses: [OCSPSingleResponse] = []
        while let node = try list.next() {
            guard responses.count < limits.maxOCSPResponses else {
                throw .limit("the OCSP response has more than \(limits.maxOCSPResponses) answers", "maxOCSPResponses")
            }
            responses.append(try parseSingle(node))
        }
        var unsupported: [String] = []
        if let explicitExtensions = try data.readIfPresent(DERTag.contextConstructed(1)) {
            unsupported = try unsupportedCritical(explicitExtensions, what: "responseExtensions")
        }
        try data.expectEnd("ResponseData")
        return BasicOCSPResponse(
            tbsBytes: tbs.encoded, signatureAlgorithm: algorithm, signatureBytes: signature.bytes,
            signatureIsWholeOctets: signature.unusedBits == 0, responderID: responderID, producedAt: producedAt,
            responses: responses, certificates: certificates, unsupportedCriticalExtensions: unsupported)
    }

    /// The `[0] EXPLICIT certs` a responder sends (its own certificate, perhaps a few more): each one named as the
    /// signer may cost signature verifications at every use, so they are bounded like the answers.
    private static func responderCertificates(
        _ explicitCerts: DERNode, limits: Limits
    ) throws(CertificateDecodingError) -> [Certificate] {
        var wrapper = try explicitCerts.children()
        var list = try wrapper.read(DERTag.sequence, "certs").children()
        try wrapper.expectEnd("certs")
        let bound = min(limits.maxCertificatesPerInput, limits.maxOCSPResponses)
        var certificates: [Certificate] = []
        while let node = try list.next() {
            guard certificates.count < bound else {
                throw .limit("the OCSP response carries more than \(bound) certificates",
                             bound == limits.maxOCSPResponses ? "maxOCSPResponses" : "maxCertificatesPerInput")
            }
            certificates.append(try Certificate(derEncoded: node.encoded, limits: limits))
        }
        return certificates
    }

    /// The ResponderID: `[1] byName` or `[2] byKey`.
    private static func parseResponderID(
        _ idNode: DERNode, limits: Limits
    ) throws(CertificateDecodingError) -> OCSPResponderID {
        var idInner = try idNode.children()
        let responderID: OCSPResponderID
        switch idNode.tag {
        case DERTag.contextConstructed(1):
            responderID = .byName(try NameParser.parse(idInner.read(DERTag.sequence, "responderID byName"), limits: limits))
        case DERTag.contextConstructed(2):
            responderID = .byKeyHash(try idInner.read(DERTag.octetString, "responderID byKey").contentBytes)
        default:
            throw CertificateDecodingError(.malformedDER, "responderID is neither byName nor byKey")
        }
        try idInner.expectEnd("responderID")
        return responderID
    }

    /// One SingleResponse.
    private static func parseSingle(_ node: DERNode) throws(CertificateDecodingError) -> OCSPSingleResponse {
        guard node.tag == DERTag.sequence else { throw CertificateDecodingError(.malformedDER, "SingleResponse is not a SEQUENCE") }
        var fields = try node.children()
        let certID = try parseCertID(fields.read(DERTag.sequence, "certID"))
        guard let statusNode = try fields.next() else { throw CertificateDecodingError(.malformedDER, "missing certStatus") }
        let status: OCSPSingleResponse.CertStatus
        var revocationReason: Int?
        switch statusNode.tag {
        case DERTag.contextPrimitive(0):
            guard statusNode.contentLength == 0 else { throw CertificateDecodingError(.malformedDER, "certStatus good is not NULL") }
            status = .good
        case DERTag.contextConstructed(1):
            var info = try statusNode.children()
            status = .revoked(try info.read(DERTag.generalizedTime, "revocationTime").time())
            if let reason = try info.readIfPresent(DERTag.contextConstructed(0)) {
                var inner = try reason.children()
                // Only shown: a value that is not a small number is no reason, never a reason to refuse the answer.
                let reasonNode = try inner.read(DERTag.enumerated, "revocationReason")
                revocationReason = try? reasonNode.smallInteger()
                try inner.expectEnd("revocationReason")
            }
            try info.expectEnd("RevokedInfo")
        case DERTag.contextPrimitive(2):
            guard statusNode.contentLength == 0 else { throw CertificateDecodingError(.malformedDER, "certStatus unknown is not NULL") }
            status = .unknown
        default:
            throw CertificateDecodingError(.malformedDER, "certStatus is not good, revoked or unknown")
        }
        let thisUpdate = try fields.read(DERTag.generalizedTime, "thisUpdate").time()
        var nextUpdate: Date?
        if let explicitNext = try fields.readIfPresent(DERTag.contextConstructed(0)) {
            var inner = try explicitNext.children()
            nextUpdate = try inner.read(DERTag.generalizedTime, "nextUpdate").time()
            try inner.expectEnd("nextUpdate")
        }
        var unsupported: [String] = []
        var timestamps: [UInt8]?
        if let explicitExtensions = try fields.readIfPresent(DERTag.contextConstructed(1)) {
            unsupported = try unsupportedCritical(explicitExtensions, what: "singleExtensions")
            timestamps = try extensionValue(SCTListParser.ocspOID, in: explicitExtensions)
        }
        try fields.expectEnd("SingleResponse")
        var answer = OCSPSingleResponse(
            certID: certID, status: status, thisUpdate: thisUpdate, nextUpdate: nextUpdate,
            unsupportedCriticalExtensions: unsupported, revocationReason: revocationReason)
        answer.signedCertificateTimestamps = timestamps
        return answer
    }

    /// A CertID.
    private static func parseCertID(_ node: DERNode) throws(CertificateDecodingError) -> OCSPCertID {
        var fields = try node.children()
        var algorithm = try fields.read(DERTag.sequence, "certID hashAlgorithm").children()
        let oid = try algorithm.read(DERTag.objectIdentifier, "certID hash OID").objectIdentifier()
        _ = try algorithm.readIfPresent(DERTag.null)
        try algorithm.expectEnd("certID hashAlgorithm")
        let nameHash = try fields.read(DERTag.octetString, "issuerNameHash").contentBytes
        let keyHash = try fields.read(DERTag.octetString, "issuerKeyHash").contentBytes
        let serial = try fields.read(DERTag.integer, "certID serialNumber").integerBytes()
        try fields.expectEnd("CertID")
        return OCSPCertID(
            hashAlgorithm: certIDHashes[oid], issuerNameHash: nameHash, issuerKeyHash: keyHash, serialNumber: serial)
    }

    /// The critical extensions certkit does not implement in an `[n] EXPLICIT Extensions`.
    private static func unsupportedCritical(_ explicit: DERNode, what: String) throws(CertificateDecodingError) -> [String] {
        var inner = try explicit.children()
        let sequence = try inner.read(DERTag.sequence, what)
        try inner.expectEnd(what)
        return try CRLParser.extensionHeaders(sequence).filter { $0.1 && !understoodExtensions.contains($0.0) }.map(\.0)
    }

    /// The extnValue content of the extension `oid` in an `[n] EXPLICIT Extensions`, nil when absent.
    private static func extensionValue(_ oid: String, in explicit: DERNode) throws(CertificateDecodingError) -> [UInt8]? {
        var inner = try explicit.children()
        var list = try inner.read(DERTag.sequence, "extensions").children()
        while let element = try list.next() {
            var fields = try element.children()
            guard try fields.read(DERTag.objectIdentifier, "extnID").objectIdentifier() == oid else { continue }
            _ = try fields.readIfPresent(DERTag.boolean)
            return try fields.read(DERTag.octetString, "extnValue").contentBytes
        }
        return nil
    }

    /// The value of a SubjectPublicKeyInfo's subjectPublicKey BIT STRING (what certID's issuerKeyHash and a
    /// byKey responderID hash), or nil when the key does not decode.
    static func subjectPublicKeyBits(_ key: PublicKeyInfo) -> [UInt8]? {
        try? DERReader.read(key.derEncoded) { top throws(CertificateDecodingError) -> [UInt8]? in
            var fields = try top.read(DERTag.sequence, "SubjectPublicKeyInfo").children()
            _ = try fields.read(DERTag.sequence, "algorithm")
            let bits = try fields.read(DERTag.bitString, "subjectPublicKey").bitString()
            return bits.unusedBits == 0 ? bits.bytes : nil
        } ?? nil
    }
}
