/// `AuthorityKeyID`: the authorityKeyIdentifier rules.
/// - `TrustRules/authorityKeyIdentifierPresent`: every version 3 certificate but the anchor and self-signed
///   ones carries an authorityKeyIdentifier with a keyIdentifier (RFC 5280 §4.2.1.1);
/// - `TrustRules/authorityKeyIdentifierNotCritical`: it is never critical;
/// - `TrustRules/rootAuthorityKeyIdentifier` (webpki): a self-signed anchor's authorityKeyIdentifier, when
///   present, holds only a keyIdentifier, equal to its own subjectKeyIdentifier.
package struct AuthorityKeyIdentifierCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        for (index, certificate) in context.certificates.enumerated() {
            let extensions = certificate.extensionsView
            let encoded = extensions.first(ExtensionOID.authorityKeyIdentifier)
            if context.enforces(TrustRules.authorityKeyIdentifierPresent), certificate.version >= 3,
               index != context.anchorIndex, !certificate.isSelfSigned, extensions.authorityKeyIdentifier == nil {
                findings.record(TrustRules.authorityKeyIdentifierPresent, at: index)
            }
            if context.enforces(TrustRules.authorityKeyIdentifierNotCritical), encoded?.isCritical == true {
                findings.record(TrustRules.authorityKeyIdentifierNotCritical, at: index)
            }
            if context.enforces(TrustRules.rootAuthorityKeyIdentifier), index == context.anchorIndex,
               certificate.isSelfIssued, encoded != nil,
               extensions.authorityKeyIdentifierNamesIssuer || extensions.authorityKeyIdentifier == nil
                || extensions.authorityKeyIdentifier != extensions.subjectKeyIdentifier {
                findings.record(TrustRules.rootAuthorityKeyIdentifier, at: index)
            }
        }
    }
}
