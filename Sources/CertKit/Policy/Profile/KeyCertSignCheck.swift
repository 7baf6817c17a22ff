/// `KeyUsage` (`TrustRules/keyCertSignRequiresCA`): a certificate that does not assert cA does not assert
/// keyCertSign (RFC 5280 §4.2.1.3).
package struct KeyCertSignCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.enforces(TrustRules.keyCertSignRequiresCA) else { return }
        for (index, certificate) in context.certificates.enumerated()
        where certificate.extensions.keyUsage?.contains(.keyCertSign) == true
            && certificate.extensions.basicConstraints?.isCA != true {
            findings.record(TrustRules.keyCertSignRequiresCA, at: index)
        }
    }
}
