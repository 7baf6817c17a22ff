/// Encodes the OCSPRequest (RFC 6960 §4.1.1) certkit sends to a responder: one Request whose CertID names a
/// certificate by SHA-1 hashes of its issuer's name and key (computed by the backend) and its serial number; no
/// signature, no extensions. Sent with HTTP GET as RFC 6960 Appendix A.1 describes (``getURL(responder:request:)``).
enum OCSPRequestEncoder {
    /// id-sha1 with NULL parameters.
    private static let sha1Algorithm: [UInt8] = [0x30, 0x09, 0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A, 0x05, 0x00]

    /// The DER request for `certificate` issued by `issuer`, nil when the issuer's key does not decode.
    static func request(
        for certificate: Certificate, issuedBy issuer: Certificate, backend: any TrustBackend
    ) throws(BackendError) -> [UInt8]? {
        guard let keyBits = OCSPResponseParser.subjectPublicKeyBits(issuer.publicKey) else { return nil }
        let certID = DERWriter.sequence([
            sha1Algorithm,
            DERWriter.tlv(DERTag.octetString, try backend.digest(.sha1, of: issuer.subject.derEncoded)),
            DERWriter.tlv(DERTag.octetString, try backend.digest(.sha1, of: keyBits)),
            DERWriter.tlv(DERTag.integer, certificate.serialNumber),
        ])
        let request = DERWriter.sequence([certID])
        let tbsRequest = DERWriter.sequence([DERWriter.sequence([request])])
        return DERWriter.sequence([tbsRequest])
    }

    /// The GET URL of `request` at `responder`: the responder URL, a slash, and the URL-encoded base64 of the DER.
    static func getURL(responder: String, request: [UInt8]) -> String {
        var encoded = ""
        for character in Base64.encode(request) {
            switch character {
            case "+": encoded += "%2B"
            case "/": encoded += "%2F"
            case "=": encoded += "%3D"
            default: encoded.append(character)
            }
        }
        return (responder.hasSuffix("/") ? responder : responder + "/") + encoded
    }
}
