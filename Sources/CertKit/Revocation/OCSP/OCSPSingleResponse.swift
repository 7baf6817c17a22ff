import Foundation

/// One SingleResponse (RFC 6960 §4.2.1): the status of the certificate its certID names, and when that status
/// was known to be correct.
package struct OCSPSingleResponse: Sendable, Hashable {
    /// The status of one certificate.
    package enum CertStatus: Sendable, Hashable {
        /// Not revoked.
        case good
        /// Revoked at the given time.
        case revoked(Date)
        /// The responder does not know the certificate: no answer.
        case unknown
    }

    /// Which certificate this answer is about.
    package let certID: OCSPCertID
    /// Its status.
    package let status: CertStatus
    /// thisUpdate.
    package let thisUpdate: Date
    /// nextUpdate, when present.
    package let nextUpdate: Date?
    /// Critical singleExtensions certkit does not implement: an answer with any is not used.
    package let unsupportedCriticalExtensions: [String]
    /// The revocationReason of a revoked answer (an RFC 5280 CRLReason value), when it gives one.
    package let revocationReason: Int?
    /// The extnValue content of the answer's SCT list extension (1.3.6.1.4.1.11129.2.4.5), when it has one:
    /// Certificate Transparency reads it (`CertificateTransparencyCheck`), revocation does not.
    package var signedCertificateTimestamps: [UInt8]? = nil
}
