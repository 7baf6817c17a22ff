import Foundation

/// A BasicOCSPResponse (RFC 6960 §4.2.1): the signed ResponseData, its signature and the certificates the
/// responder sent to help verify it.
public struct BasicOCSPResponse: Sendable, Hashable {
    /// The signed part (tbsResponseData) as encoded.
    public let tbsBytes: [UInt8]
    /// The signature algorithm.
    public let signatureAlgorithm: SignatureAlgorithm
    /// The signature value.
    public let signatureBytes: [UInt8]
    /// True when the signature BIT STRING has no unused bits.
    public let signatureIsWholeOctets: Bool
    /// Who signed the response.
    public let responderID: OCSPResponderID
    /// producedAt.
    public let producedAt: Date
    /// The answers, one per certificate asked about.
    public let responses: [OCSPSingleResponse]
    /// The certificates sent with the response (a delegated responder's certificate, usually).
    public let certificates: [Certificate]
    /// Critical responseExtensions certkit does not implement: a response with any is not used.
    public let unsupportedCriticalExtensions: [String]
}
