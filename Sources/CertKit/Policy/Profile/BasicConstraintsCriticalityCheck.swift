/// `BasicConstraints` (`TrustRules/caBasicConstraintsCritical`): a certificate asserting cA marks
/// basicConstraints critical (RFC 5280 §4.2.1.9); under webpki the anchor is taken as given
/// (`PathContext/appliesCAProfileRules(at:)`).
package struct BasicConstraintsCriticalityCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.enforces(TrustRules.caBasicConstraintsCritical) else { return }
        for (index, certificate) in context.certificates.enumerated()
        where certificate.extensions.basicConstraints?.isCA == true
            && certificate.extensions.first(ExtensionOID.basicConstraints)?.isCritical == false
            && context.appliesCAProfileRules(at: index) {
            findings.record(TrustRules.caBasicConstraintsCritical, at: index)
        }
    }
}
