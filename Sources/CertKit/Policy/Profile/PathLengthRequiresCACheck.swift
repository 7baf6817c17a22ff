/// `BasicConstraints` (`TrustRules/pathLengthRequiresCA`): a certificate that does not assert cA carries no
/// pathLenConstraint (RFC 5280 §4.2.1.9: "CAs MUST NOT include the pathLenConstraint field unless the cA boolean
/// is asserted").
package struct PathLengthRequiresCACheck: PathCheck {
    public init() {}

    public func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.enforces(TrustRules.pathLengthRequiresCA) else { return }
        for (index, certificate) in context.certificates.enumerated() {
            if let constraints = certificate.extensions.basicConstraints, !constraints.isCA, constraints.pathLength != nil {
                findings.record(TrustRules.pathLengthRequiresCA, at: index)
            }
        }
    }
}
