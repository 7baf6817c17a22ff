import Foundation

/// Apple's serverAuth requirement (profile `apple`): an SSL server leaf issued on or after 2019-07-01 that chains to
/// an anchor the app supplied or the trust settings make must carry an extendedKeyUsage naming serverAuth itself
/// (`TrustRules/serverAuthRequired`, `ExtendedKeyUsage`; anyExtendedKeyUsage does not suffice). The validity-period
/// maximums are ``ValidityPeriodCheck``.
package struct AppleServerProfileCheck: PathCheck {
    /// 2019-07-01T00:00:00Z.
    package static let ruleStart = Date(timeIntervalSince1970: 1_561_939_200)

    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.policy.sslServer == true, context.enforces(TrustRules.serverAuthRequired),
              context.anchorOrigin == .appSupplied || context.anchorOrigin == .userTrustSettings,
              let leaf = context.certificates.first, leaf.notBefore >= Self.ruleStart
        else { return }
        // A leaf that is itself the anchor is trusted as pinned; the rule is about issued leaves.
        guard context.leafIsIssued else { return }
        if !(leaf.extensions.extendedKeyUsage ?? []).contains(ExtendedKeyUsageOID.serverAuth) {
            findings.record(
                TrustRules.serverAuthRequired, at: 0,
                note: "a server certificate issued on or after 2019-07-01 must list serverAuth")
        }
    }
}
