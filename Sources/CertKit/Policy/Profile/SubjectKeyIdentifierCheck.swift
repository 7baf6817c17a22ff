/// `SubjectKeyID`: every certificate asserting cA carries a subjectKeyIdentifier
/// (`TrustRules/subjectKeyIdentifierInCA`; under webpki not the anchor, `PathContext/appliesCAProfileRules(at:)`),
/// and none marks it critical
/// (`TrustRules/subjectKeyIdentifierNotCritical`), RFC 5280 §4.2.1.2.
package struct SubjectKeyIdentifierCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        for (index, certificate) in context.certificates.enumerated() {
            let extensions = certificate.extensionsView
            if context.enforces(TrustRules.subjectKeyIdentifierInCA), extensions.basicConstraints?.isCA == true,
               extensions.subjectKeyIdentifier == nil, context.appliesCAProfileRules(at: index) {
                findings.record(TrustRules.subjectKeyIdentifierInCA, at: index)
            }
            if context.enforces(TrustRules.subjectKeyIdentifierNotCritical),
               extensions.first(ExtensionOID.subjectKeyIdentifier)?.isCritical == true {
                findings.record(TrustRules.subjectKeyIdentifierNotCritical, at: index)
            }
        }
    }
}
