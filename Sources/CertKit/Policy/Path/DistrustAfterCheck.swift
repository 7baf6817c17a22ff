import Foundation

/// When a leaf was issued, as a distrust-after setting judges it (``TrustSettings/UsageConstraint/distrustAfter``).
package enum LeafIssuance {
    /// True when `leaf` was issued after `cutoff`, so that a certificate distrusted for leaves issued after `cutoff`
    /// does not vouch for it. A leaf issued exactly at `cutoff` is not after it.
    ///
    /// The issuance is `earliestValidSCT` when given — the earliest timestamp of the leaf's Signed Certificate
    /// Timestamps that validated — else the leaf's notBefore. A CA can backdate notBefore; it cannot backdate a log's
    /// timestamp, which is why the root programs judge distrust-after dates by the earliest SCT (Chrome's Entrust and
    /// Symantec distrusts). certkit validates no SCT yet: every caller passes nil, and the Certificate Transparency
    /// support will pass the earliest valid SCT here, in this one place.
    package static func isIssued(_ leaf: Certificate, after cutoff: Date, earliestValidSCT: Date? = nil) -> Bool {
        (earliestValidSCT ?? leaf.notBefore) > cutoff
    }
}

/// `AnchorTrusted` (rule `certkit.distrust-after`): a certificate of the path — the anchor or an intermediate — whose
/// trust settings distrust it for leaves issued after a date, on a path whose leaf was issued after that date
/// (``LeafIssuance``). Recorded on that certificate; recoverable, as trustd reports a leaf under a date-constrained
/// CA.
package struct DistrustAfterCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard !context.trustSettingsIndex.isEmpty, let leaf = context.certificates.first else { return }
        for (index, certificate) in context.certificates.enumerated() {
            guard let cutoff = context.trustSettingsIndex.resolution(for: certificate, under: context.policy).distrustAfter,
                  LeafIssuance.isIssued(leaf, after: cutoff, earliestValidSCT: nil)
            else { continue }
            findings.record(
                TrustRules.distrustAfter, at: index,
                note: "a trust setting distrusts it for leaves issued after \(ISO8601Text.timestamp(cutoff)); "
                    + "the leaf was issued \(ISO8601Text.timestamp(leaf.notBefore))")
        }
    }
}
