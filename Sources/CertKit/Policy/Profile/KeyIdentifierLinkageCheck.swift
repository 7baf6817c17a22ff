/// `IdLinkage` (`TrustRules/keyIdentifierLinkage`): a certificate whose authorityKeyIdentifier keyIdentifier
/// differs from its issuer's subjectKeyIdentifier is not issued by it. `ChainBuilder` never makes such a link,
/// so this check only guards against a path that was built some other way.
package struct KeyIdentifierLinkageCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        let certificates = context.certificates
        for index in certificates.indices.dropLast() {
            if let aki = certificates[index].extensions.authorityKeyIdentifier,
               let ski = certificates[index + 1].extensions.subjectKeyIdentifier, aki != ski {
                findings.record(TrustRules.keyIdentifierLinkage, at: index)
            }
        }
    }
}
