/// `NameConstraints` on the certificate that carries them, when the extension itself breaks RFC 5280 §4.2.1.10:
/// in a certificate that does not assert cA (`TrustRules/nameConstraintsInCAOnly`), not critical
/// (`TrustRules/nameConstraintsCritical`, rfc5280 only: the Web PKI and Apple accept the non-critical form),
/// with neither permitted nor excluded subtrees (`TrustRules/nameConstraintsNotEmpty`), or with a dNSName
/// subtree that starts with a period (`TrustRules/nameConstraintsDNSForm`).
package struct NameConstraintsFormCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        for (index, certificate) in context.certificates.enumerated() {
            let extensions = certificate.extensionsView
            guard let constraints = extensions.nameConstraints else { continue }
            if context.enforces(TrustRules.nameConstraintsInCAOnly), extensions.basicConstraints?.isCA != true {
                findings.record(TrustRules.nameConstraintsInCAOnly, at: index)
            }
            if context.enforces(TrustRules.nameConstraintsCritical),
               extensions.first(ExtensionOID.nameConstraints)?.isCritical == false {
                findings.record(TrustRules.nameConstraintsCritical, at: index)
            }
            if context.enforces(TrustRules.nameConstraintsNotEmpty), constraints.permitted.isEmpty,
               constraints.excluded.isEmpty {
                findings.record(TrustRules.nameConstraintsNotEmpty, at: index)
            }
            if context.enforces(TrustRules.nameConstraintsDNSForm), (constraints.permitted + constraints.excluded).contains(where: {
                if case .dnsName(let base) = $0 { return base.hasPrefix(".") }
                return false
            }) {
                findings.record(TrustRules.nameConstraintsDNSForm, at: index)
            }
        }
    }
}
