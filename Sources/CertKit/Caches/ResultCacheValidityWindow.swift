import Foundation

/// The verify dates a cached result may be reused for: every date strictly between the nearest validity
/// boundaries around the date it was computed at (or that date itself).
///
/// The boundaries are the notBefore/notAfter of every certificate the evaluation could look at (leaf, pool,
/// anchors, trust-setting certificates) and the thisUpdate/nextUpdate of its CRLs and OCSP answers (and the validity of certificates OCSP responses carry), and with a CT log list the instants the list goes stale and the SCTs' timestamps. Every date-dependent rule
/// compares the verify date with one of these instants, so its outcome is constant between two neighbouring
/// boundaries; crossing one (an expiry, a CRL going stale) always forces a new evaluation. Each boundary also
/// counts one second later, because the libraries compare whole seconds (`time_t`).
struct ResultCacheValidityWindow: Sendable, Hashable {
    /// The date the result was computed for.
    let date: Date
    /// The nearest boundary before `date` (exclusive), nil when there is none.
    let lower: Date?
    /// The nearest boundary after `date` (exclusive), nil when there is none.
    let upper: Date?

    /// The window around `date` for `evaluation` (`systemAnchors` when the system store is in play).
    init(evaluation: TrustEvaluation, systemAnchors: [Certificate], date: Date, limits: Limits = .default) {
        self.date = date
        var lower: Date?
        var upper: Date?
        var onBoundary = false
        func note(_ boundary: Date) {
            for instant in [boundary, boundary.addingTimeInterval(1)] {
                if instant < date {
                    if lower.map({ instant > $0 }) ?? true { lower = instant }
                } else if instant > date {
                    if upper.map({ instant < $0 }) ?? true { upper = instant }
                } else {
                    onBoundary = true
                }
            }
        }
        let certificateLists = [
            evaluation.certificates, evaluation.additionalIntermediates, evaluation.anchors,
            evaluation.trustSettings.certificates,
            evaluation.anchorsOnly ? [] : systemAnchors,
        ]
        for list in certificateLists {
            for certificate in list {
                note(certificate.notBefore)
                note(certificate.notAfter)
            }
        }
        for crl in evaluation.crls {
            note(RevocationClockSkew.earliestUse(ofAnswerIssuedAt: crl.thisUpdate))
            if let next = crl.nextUpdate { note(next) }
        }
        for response in evaluation.ocspResponses {
            guard let basic = response.basic else { continue }
            for certificate in basic.certificates {
                note(certificate.notBefore)
                note(certificate.notAfter)
            }
            for answer in basic.responses {
                note(RevocationClockSkew.earliestUse(ofAnswerIssuedAt: answer.thisUpdate))
                note(answer.nextUpdate ?? answer.thisUpdate.addingTimeInterval(OCSPResponseCheck.lifetimeWithoutNextUpdate))
            }
        }
        for boundary in CertificateTransparencyCheck.dateBoundaries(of: evaluation, limits: limits) { note(boundary) }
        // On a boundary the result holds for that instant only.
        self.lower = onBoundary ? date : lower
        self.upper = onBoundary ? date : upper
    }

    /// True when a result computed for ``date`` also holds at `other`.
    func contains(_ other: Date) -> Bool {
        if other == date { return true }
        if let lower, other <= lower { return false }
        if let upper, other >= upper { return false }
        return true
    }
}
