/// `TemporalValidity` (`TrustRules/validity`): every certificate of the path, anchor included, must be valid at
/// the verify date, both ends included (the evaluator floors the date to the second).
package struct ValidityCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        for (index, certificate) in context.certificates.enumerated() where !certificate.isValid(at: context.date) {
            findings.record(TrustRules.validity, at: index)
        }
    }
}
