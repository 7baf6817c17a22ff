import Foundation

/// One SingleResponse (RFC 6960 §4.2.1): the status of the certificate its certID names, and when that status
/// was known to be correct.
public struct OCSPSingleResponse: Sendable, Hashable {
    /// The status of one certificate.
    public enum CertStatus: Sendable, Hashable {
        /// Not revoked.
        case good
        /// Revoked at the given time.
        case revoked(Date)
        /// The responder does not know the certificate: no answer.
        case unknown
    }

    /// Which certificate this answer is about.
    public let certID: OCSPCertID
    /// Its status.
    public let status: CertStatus
    /// thisUpdate.
    public let thisUpdate: Date
    /// nextUpdate, when present.
    public let nextUpdate: Date?
    /// Critical singleExtensions certkit does not implement: an answer with any is not used.
    public let unsupportedCriticalExtensions: [String]
    /// The revocationReason of a revoked answer (an RFC 5280 CRLReason value), when it gives one.
    public let revocationReason: Int?
}
