/// Everything a trust result depends on except the verify date (which ``ResultValidityWindow`` covers).
///
/// Equality is exact: certificates, anchors, CRLs and settings compare by their full DER (`Array` equality
/// short-cuts to a pointer comparison when callers reuse the same values, the common case). Hashing is the
/// synthesized one over every member: a certificate contributes the hash of its whole DER, computed once per
/// certificate and kept, so a 150-certificate anchor set costs 150 integers; a CRL contributes the hash of all of
/// its DER (``Swift/Hasher/combine(encoding:)``).
struct ResultCacheKey: Hashable, Sendable {
    let certificates: [Certificate]
    let additionalIntermediates: [Certificate]
    let anchors: [Certificate]
    let anchorsOnly: Bool
    let policies: [TrustPolicy]
    let trustSettings: TrustSettings
    let exceptions: TrustExceptions?
    let crls: [CertificateRevocationList]
    let ocspResponses: [OCSPResponse]
    let revocationMode: RevocationMode
    let requireRevocation: Bool
    let pins: [SPKIPin]
    let maxDepth: Int
    /// How many pool certificates were left out undecoded: they count toward the pool's bound.
    let skippedCount: Int
    let backend: String

    init(_ evaluation: TrustEvaluation, backend: String) {
        certificates = evaluation.certificates
        additionalIntermediates = evaluation.additionalIntermediates
        anchors = evaluation.anchors
        anchorsOnly = evaluation.anchorsOnly
        policies = evaluation.policies
        trustSettings = evaluation.trustSettings
        exceptions = evaluation.exceptions
        crls = evaluation.crls
        ocspResponses = evaluation.ocspResponses
        revocationMode = evaluation.revocationMode
        requireRevocation = evaluation.requireRevocation
        pins = evaluation.pins
        maxDepth = evaluation.maxDepth
        skippedCount = evaluation.skippedCertificates.count
        self.backend = backend
    }
}
