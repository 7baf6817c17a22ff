/// `BasicConstraints` (`TrustRules/pathLengthRequiresCA`): a certificate carries a pathLenConstraint only when it
/// asserts cA and, when it has keyUsage, keyCertSign (RFC 5280 §4.2.1.9: "CAs MUST NOT include the
/// pathLenConstraint field unless the cA boolean is asserted and the key usage extension asserts the keyCertSign
/// bit").
package struct PathLengthRequiresCACheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.enforces(TrustRules.pathLengthRequiresCA) else { return }
        for (index, certificate) in context.certificates.enumerated() {
            guard let constraints = certificate.extensions.basicConstraints, constraints.pathLength != nil else { continue }
            if !constraints.isCA || certificate.extensions.keyUsage.map({ !$0.contains(.keyCertSign) }) == true {
                findings.record(TrustRules.pathLengthRequiresCA, at: index)
            }
        }
    }
}
