/// `NonEmptySubject`, as trustd checks it: a CA certificate (an issuer in the path, or any certificate asserting
/// cA) has a non-empty subject (`TrustRules/caSubjectNotEmpty`, RFC 5280 §4.1.2.6), and any other certificate
/// with an empty subject carries a critical subjectAltName (`TrustRules/emptySubjectCriticalSAN`, §4.2.1.6).
package struct SubjectNameCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        for (index, certificate) in context.certificates.enumerated() where certificate.subject.hasNoRelativeNames {
            let isCA = index > 0 || certificate.extensions.basicConstraints?.isCA == true
            if isCA {
                if context.enforces(TrustRules.caSubjectNotEmpty) { findings.record(TrustRules.caSubjectNotEmpty, at: index) }
            } else if context.enforces(TrustRules.emptySubjectCriticalSAN),
                      certificate.extensions.first(ExtensionOID.subjectAltName)?.isCritical != true {
                findings.record(TrustRules.emptySubjectCriticalSAN, at: index)
            }
        }
    }
}
