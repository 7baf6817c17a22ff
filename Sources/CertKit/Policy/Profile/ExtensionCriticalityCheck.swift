/// `ExtensionCriticality`: extensions whose critical flag the RFC or the BRs fix.
/// - `TrustRules/authorityInfoAccessNotCritical`: authorityInfoAccess is not critical (RFC 5280 §4.2.2.1);
/// - `TrustRules/extensionCriticality`: inhibitAnyPolicy is critical; subjectDirectoryAttributes, freshestCRL
///   and subjectInfoAccess are not (RFC 5280 §4.2.1.8, §4.2.1.14, §4.2.1.15, §4.2.2.2);
/// - `TrustRules/subjectAltNameCriticality` (webpki): subjectAltName is critical only when the subject is empty.
/// (basicConstraints, key identifiers, name and policy constraints and extendedKeyUsage have their own checks.)
package struct ExtensionCriticalityCheck: PathCheck {
    /// Extensions RFC 5280 says MUST NOT be critical, besides those with their own check.
    static let neverCritical: Set<String> = [
        ExtensionOID.subjectDirectoryAttributes, ExtensionOID.freshestCRL, ExtensionOID.subjectInfoAccess,
    ]

    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        for (index, certificate) in context.certificates.enumerated() {
            for encoded in certificate.extensions.all {
                if encoded.oid == ExtensionOID.authorityInfoAccess, encoded.isCritical,
                   context.enforces(TrustRules.authorityInfoAccessNotCritical) {
                    findings.record(TrustRules.authorityInfoAccessNotCritical, at: index, note: "authorityInfoAccess is critical")
                }
                if context.enforces(TrustRules.extensionCriticality),
                   (encoded.oid == ExtensionOID.inhibitAnyPolicy && !encoded.isCritical)
                    || (Self.neverCritical.contains(encoded.oid) && encoded.isCritical) {
                    findings.record(TrustRules.extensionCriticality, at: index, note: "\(encoded.oid) critical: \(encoded.isCritical)")
                }
                if encoded.oid == ExtensionOID.subjectAltName, encoded.isCritical,
                   !certificate.subject.hasNoRelativeNames, context.enforces(TrustRules.subjectAltNameCriticality) {
                    findings.record(TrustRules.subjectAltNameCriticality, at: index, note: "subjectAltName is critical")
                }
            }
        }
    }
}
