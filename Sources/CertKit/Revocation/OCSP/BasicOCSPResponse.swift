import Foundation

/// A BasicOCSPResponse (RFC 6960 §4.2.1): the signed ResponseData, its signature and the certificates the
/// responder sent to help verify it.
package struct BasicOCSPResponse: Sendable, Hashable {
    /// The signed part (tbsResponseData) as encoded.
    package let tbsBytes: [UInt8]
    /// The signature algorithm.
    package let signatureAlgorithm: SignatureAlgorithm
    /// The signature value.
    package let signatureBytes: [UInt8]
    /// True when the signature BIT STRING has no unused bits.
    package let signatureIsWholeOctets: Bool
    /// Who signed the response.
    package let responderID: OCSPResponderID
    /// producedAt.
    package let producedAt: Date
    /// The answers, one per certificate asked about.
    package let responses: [OCSPSingleResponse]
    /// The certificates sent with the response (a delegated responder's certificate, usually).
    package let certificates: [Certificate]
    /// Critical responseExtensions certkit does not implement: a response with any is not used.
    package let unsupportedCriticalExtensions: [String]
}
