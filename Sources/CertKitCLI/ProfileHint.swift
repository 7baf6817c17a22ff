import CertKit

/// The command-line advice for a failure whose rule another profile drops: `use --profile rfc5280 to drop this
/// rule`. The core names the rule and the profiles that enforce it; only the CLI knows its options.
enum ProfileHint {
    /// The advice for `report`'s error, or nil when the rule is in every profile the policy can use (or the
    /// report has no error, or its policy is basic, which always uses rfc5280).
    static func hint(for report: TrustReport) -> String? {
        guard let rule = report.error?.rule, report.policy != .basicX509, rule.isEnforced(by: report.policy.profile)
        else { return nil }
        // Every rule that failed the same check on the same certificate must be dropped (a secp256k1 key fails
        // apple.key-algorithm and certkit.key-algorithm: no profile drops both).
        let error = report.error!
        let failing = [rule] + report.failedRules(at: error.certificateIndex).filter { $0.check == error.check }
        let dropping = TrustProfile.allCases.filter { profile in !failing.contains { $0.isEnforced(by: profile) } }
        guard !dropping.isEmpty else { return nil }
        return "use " + dropping.map { "--profile \($0.rawValue)" }.joined(separator: " or ") + " to drop this rule"
    }
}
