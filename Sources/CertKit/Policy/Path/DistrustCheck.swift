/// `UsageConstraints`: a certificate whose trust settings say `deny` under the policy, anywhere in the path,
/// makes it `deny`.
package struct DistrustCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard !context.trustSettingsIndex.isEmpty else { return }
        for (index, certificate) in context.certificates.enumerated()
        where context.trustSettingsIndex.resolution(for: certificate, under: context.policy).isDenied {
            findings.record(TrustRules.distrust, at: index)
        }
    }
}
