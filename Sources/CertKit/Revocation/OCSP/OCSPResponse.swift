/// An OCSP response (RFC 6960 §4.2.1), parsed by the core. Only ``OCSPResponseStatus/successful`` responses of
/// type id-pkix-ocsp-basic carry an answer (`basic`); the core validates the answer before using it (the
/// revocation check): its signature (verified by the backend), its signer, its certID and its update times.
///
/// Two responses are equal exactly when their DER encodings are byte-identical.
public struct OCSPResponse: Sendable, Hashable {
    /// The complete DER encoding.
    public let derEncoded: [UInt8]
    /// The responseStatus.
    public let status: OCSPResponseStatus
    /// The BasicOCSPResponse, present exactly when ``status`` is ``OCSPResponseStatus/successful``.
    package let basic: BasicOCSPResponse?

    /// Parses one DER OCSPResponse; trailing bytes are an error, and so is a successful response of another type
    /// than id-pkix-ocsp-basic.
    /// - Throws: ``CertificateDecodingError``; of kind ``CertificateDecodingError/Code/limitExceeded`` for more
    ///   than ``Limits/maxOCSPResponses`` single responses or certificates, or more than ``Limits/maxInputBytes``
    ///   bytes.
    public init(derEncoded: [UInt8], limits: Limits = .default) throws(CertificateDecodingError) {
        self = try OCSPResponseParser.parse(derEncoded, limits: limits)
    }

    init(derEncoded: [UInt8], status: OCSPResponseStatus, basic: BasicOCSPResponse?) {
        self.derEncoded = derEncoded
        self.status = status
        self.basic = basic
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.derEncoded == rhs.derEncoded }
    public func hash(into hasher: inout Hasher) { hasher.combine(encoding: derEncoded) }
}
