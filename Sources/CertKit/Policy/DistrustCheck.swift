/// `UsageConstraints`: a certificate with a distrust setting anywhere in the path makes it `deny`.
package struct DistrustCheck: PathCheck {
    public init() {}

    public func check(_ context: PathContext, into findings: inout PathFindings) {
        guard !context.trustSettings.distrust.isEmpty else { return }
        let distrusted = Set(context.trustSettings.distrust)
        for (index, certificate) in context.certificates.enumerated() where distrusted.contains(certificate) {
            findings.record(TrustRules.distrust, at: index)
        }
    }
}
