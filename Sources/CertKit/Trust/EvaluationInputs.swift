import Foundation

/// Everything a verdict depends on, as one value: the certificates and pool, the anchors and where they come from,
/// the policies (each with its profile and name), the date, the trust settings and exceptions, the revocation
/// inputs and mode, the pins, the depth bound and the network permission.
///
/// ``TrustEvaluation``, ``ServerTrust`` and ``ClientTrust`` hold one, and the result cache keys on it (with the
/// backend's name; the verify date is left out of the key and judged by the cached report's validity window). A
/// new input added here is part of the key without anything else to change; `EvaluationInputsTests` enumerates
/// the stored properties and fails on one that does not change the key.
package struct EvaluationInputs: Hashable, Sendable {
    /// The leaf first, then an unordered pool of intermediates.
    package var certificates: [Certificate]
    /// The policies to check.
    package var policies: [TrustPolicy]
    /// The anchor certificates.
    package var anchors: [Certificate]
    /// True: only ``anchors`` (and certificates the settings trust as anchors); false: the system roots too.
    package var anchorsOnly: Bool
    /// The verification time; nil means now.
    package var verifyDate: Date?
    /// Per-certificate trust settings.
    package var trustSettings: TrustSettings
    /// Exceptions from an earlier evaluation.
    package var exceptions: TrustExceptions?
    /// CRLs to check revocation against.
    package var crls: [CertificateRevocationList]
    /// OCSP responses to check revocation against (stapled, or from a file).
    package var ocspResponses: [OCSPResponse]
    /// Which revocation sources are used.
    package var revocationMode: RevocationMode
    /// Whether missing issuers and revocation answers may be fetched (such an evaluation is never cached).
    package var networkFetchAllowed: Bool
    /// Whether every certificate below the anchor needs a positive revocation answer.
    package var requireRevocation: Bool
    /// SPKI SHA-256 pins.
    package var pins: [SPKIPin]
    /// Additional intermediates, part of the pool.
    package var additionalIntermediates: [Certificate]
    /// The maximum number of intermediates in a path.
    package var maxDepth: Int
    /// Pool certificates that did not decode: they count toward the pool's bound.
    package var skippedCertificates: [SkippedCertificate]
    /// OCSP responses and CRLs the evaluator fetched (network fetching).
    package var fetchedOCSPResponses: [OCSPResponse]
    package var fetchedCRLs: [CertificateRevocationList]
    /// The Certificate Transparency log list (nil: CT is not evaluated).
    package var certificateTransparencyLogList: CTLogList?
    /// SignedCertificateTimestampLists the TLS server sent (extension signed_certificate_timestamp), as sent.
    package var tlsSignedCertificateTimestamps: [[UInt8]]

    package init(
        certificates: [Certificate], policies: [TrustPolicy] = [.basicX509], anchors: [Certificate] = [],
        anchorsOnly: Bool? = nil, verifyDate: Date? = nil, trustSettings: TrustSettings = .none,
        exceptions: TrustExceptions? = nil, crls: [CertificateRevocationList] = [],
        ocspResponses: [OCSPResponse] = [], revocationMode: RevocationMode = .any, networkFetchAllowed: Bool = false,
        requireRevocation: Bool = false, pins: [SPKIPin] = [], additionalIntermediates: [Certificate] = [],
        maxDepth: Int = TrustEvaluation.defaultMaxDepth, skippedCertificates: [SkippedCertificate] = [],
        fetchedOCSPResponses: [OCSPResponse] = [], fetchedCRLs: [CertificateRevocationList] = [],
        certificateTransparencyLogList: CTLogList? = nil, tlsSignedCertificateTimestamps: [[UInt8]] = []
    ) {
        self.certificateTransparencyLogList = certificateTransparencyLogList
        self.tlsSignedCertificateTimestamps = tlsSignedCertificateTimestamps
        self.certificates = certificates
        self.policies = policies
        self.anchors = anchors
        self.anchorsOnly = anchorsOnly ?? !anchors.isEmpty
        self.verifyDate = verifyDate
        self.trustSettings = trustSettings
        self.exceptions = exceptions
        self.crls = crls
        self.ocspResponses = ocspResponses
        self.revocationMode = revocationMode
        self.networkFetchAllowed = networkFetchAllowed
        self.requireRevocation = requireRevocation
        self.pins = pins
        self.additionalIntermediates = additionalIntermediates
        self.maxDepth = maxDepth
        self.skippedCertificates = skippedCertificates
        self.fetchedOCSPResponses = fetchedOCSPResponses
        self.fetchedCRLs = fetchedCRLs
    }
}
