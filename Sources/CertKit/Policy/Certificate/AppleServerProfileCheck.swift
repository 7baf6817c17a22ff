import Foundation

/// Apple's SSL server rules (profile `apple`), for leaves issued on or after 2019-07-01 that chain to an
/// app-supplied anchor:
/// - the leaf must carry an extendedKeyUsage naming serverAuth itself (`TrustRules/serverAuthRequired`,
///   `ExtendedKeyUsage`; anyExtendedKeyUsage does not suffice);
/// - its validity period must be at most 825 days (`TrustRules/validityPeriod`, `ValidityPeriodMaximums`).
package struct AppleServerProfileCheck: PathCheck {
    /// 2019-07-01T00:00:00Z.
    package static let ruleStart = Date(timeIntervalSince1970: 1_561_939_200)
    /// The longest validity allowed, in days.
    package static let maximumValidityDays = 825

    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.policy.sslServer == true, context.enforces(TrustRules.serverAuthRequired),
              context.anchorIsAppSupplied, let leaf = context.certificates.first, leaf.notBefore >= Self.ruleStart
        else { return }
        // A leaf that is itself the anchor is trusted as pinned; the rules are about issued leaves.
        guard context.leafIsIssued else { return }
        if !(leaf.extensions.extendedKeyUsage ?? []).contains(ExtendedKeyUsageOID.serverAuth) {
            findings.record(
                TrustRules.serverAuthRequired, at: 0,
                note: "a server certificate issued on or after 2019-07-01 must list serverAuth")
        }
        let days = leaf.notAfter.timeIntervalSince(leaf.notBefore) / 86_400
        if days > Double(Self.maximumValidityDays), context.enforces(TrustRules.validityPeriod) {
            findings.record(TrustRules.validityPeriod, at: 0, note: "validity of \(Int(days)) days exceeds 825")
        }
    }
}
