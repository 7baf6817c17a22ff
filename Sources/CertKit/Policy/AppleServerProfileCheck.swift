import Foundation

/// The Apple-only SSL server rules (profile `apple`, the default), for leaves issued on or after 2019-07-01
/// that chain to an app-supplied anchor:
/// - the leaf must carry an extendedKeyUsage naming serverAuth itself (`ExtendedKeyUsage`; anyExtendedKeyUsage
///   does not suffice);
/// - its validity period must be at most 825 days (`ValidityPeriodMaximums`).
/// `--profile rfc5280` drops both.
public struct AppleServerProfileCheck: PathCheck {
    /// 2019-07-01T00:00:00Z.
    public static let ruleStart = Date(timeIntervalSince1970: 1_561_939_200)
    /// The longest validity allowed, in days.
    public static let maximumValidityDays = 825

    public init() {}

    public func check(_ context: PathContext, into findings: inout PathFindings) {
        guard case .ssl(true, _, .apple) = context.policy, context.anchorIsAppSupplied,
              let leaf = context.certificates.first, leaf.notBefore >= Self.ruleStart else { return }
        // A leaf that is itself the anchor is trusted as pinned; the rules are about issued leaves.
        if context.anchorIndex == 0 { return }
        if !(leaf.extensions.extendedKeyUsage ?? []).contains(ExtendedKeyUsageOID.serverAuth) {
            findings.record(.extendedKeyUsage, at: 0, note: "Apple profile: a server certificate issued on or after 2019-07-01 must list serverAuth (use --profile rfc5280 to drop this rule)")
        }
        let days = leaf.notAfter.timeIntervalSince(leaf.notBefore) / 86_400
        if days > Double(Self.maximumValidityDays) {
            findings.record(.validityPeriodMaximums, at: 0, note: "Apple profile: validity of \(Int(days)) days exceeds 825 (use --profile rfc5280 to drop this rule)")
        }
    }
}
