/// The validity-period maximums of TLS server leaves, by the origin of the path's anchor (``AnchorOrigin``) and the
/// leaf's issuance date (``ValidityPeriodSchedule``), each under its own rule and the check trustd reports,
/// `ValidityPeriodMaximums`:
/// - `apple` (trustd): an anchor the app supplied — `TrustRules/validityPeriod`, ``ValidityPeriodSchedule/appleAppSupplied``;
///   a system root — `TrustRules/validityPeriodSystemRoots`, ``ValidityPeriodSchedule/appleSystem``; an anchor the
///   user's trust settings make is exempt.
/// - `webpki`: a system root — `TrustRules/webPKIValidityPeriod`, ``ValidityPeriodSchedule/webPKI`` (the Baseline
///   Requirements bind publicly trusted CAs; Chrome applies its maximum only to chains to a known root).
///
/// Only the SSL server policy applies maximums (trustd's client policy does not), and only to an issued leaf (a
/// leaf that is itself the anchor is trusted as pinned).
package struct ValidityPeriodCheck: PathCheck {
    /// Which schedule applies to which anchor origin, under which rule.
    static let table: [(rule: TrustRule, origin: AnchorOrigin, schedule: ValidityPeriodSchedule)] = [
        (TrustRules.validityPeriod, .appSupplied, .appleAppSupplied),
        (TrustRules.validityPeriodSystemRoots, .system, .appleSystem),
        (TrustRules.webPKIValidityPeriod, .system, .webPKI),
    ]

    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.policy.sslServer == true, context.leafIsIssued, let origin = context.anchorOrigin,
              let leaf = context.certificates.first
        else { return }
        for (rule, ruleOrigin, schedule) in Self.table where ruleOrigin == origin && context.enforces(rule) {
            if let excess = schedule.excess(of: leaf) { findings.record(rule, at: 0, note: excess) }
        }
    }
}
