/// `ExtendedKeyUsage` under the Web PKI:
/// - `TrustRules/leafExtendedKeyUsage`: under the SSL policies the (issued) leaf carries extendedKeyUsage with
///   serverAuth or clientAuth, whichever the policy checks; anyExtendedKeyUsage alone is not enough;
/// - `TrustRules/extendedKeyUsageNotCritical`: no certificate marks extendedKeyUsage critical;
/// - `TrustRules/rootWithoutExtendedKeyUsage`: a self-signed anchor carries no extendedKeyUsage;
/// - `TrustRules/intermediateExtendedKeyUsage`: under the SSL policies an intermediate's extendedKeyUsage, when
///   present, lists the purpose itself (BR §7.1.2.10.6: anyExtendedKeyUsage alone is not a TLS subordinate CA).
package struct LeafExtendedKeyUsageCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard let leaf = context.certificates.first else { return }
        if let server = context.policy.sslServer, context.leafIsIssued, context.enforces(TrustRules.leafExtendedKeyUsage) {
            let purpose = server ? ExtendedKeyUsageOID.serverAuth : ExtendedKeyUsageOID.clientAuth
            if !(leaf.extensions.extendedKeyUsage ?? []).contains(purpose) {
                findings.record(TrustRules.leafExtendedKeyUsage, at: 0)
            }
        }
        if let server = context.policy.sslServer, context.enforces(TrustRules.intermediateExtendedKeyUsage) {
            let purpose = server ? ExtendedKeyUsageOID.serverAuth : ExtendedKeyUsageOID.clientAuth
            for index in context.issuerIndices where index != context.anchorIndex {
                if let usages = context.certificates[index].extensions.extendedKeyUsage, !usages.contains(purpose) {
                    findings.record(TrustRules.intermediateExtendedKeyUsage, at: index,
                                    note: "extendedKeyUsage without \(server ? "serverAuth" : "clientAuth")")
                }
            }
        }
        for (index, certificate) in context.certificates.enumerated() {
            if context.enforces(TrustRules.extendedKeyUsageNotCritical),
               certificate.extensions.first(ExtensionOID.extendedKeyUsage)?.isCritical == true {
                findings.record(TrustRules.extendedKeyUsageNotCritical, at: index)
            }
            if context.enforces(TrustRules.rootWithoutExtendedKeyUsage), index == context.anchorIndex,
               context.leafIsIssued, certificate.isSelfIssued,
               certificate.extensions.first(ExtensionOID.extendedKeyUsage) != nil {
                findings.record(TrustRules.rootWithoutExtendedKeyUsage, at: index)
            }
        }
    }
}
