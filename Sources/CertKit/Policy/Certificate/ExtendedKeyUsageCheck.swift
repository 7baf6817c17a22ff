/// `ExtendedKeyUsage` for the SSL policies: the leaf's EKU, when present, must allow the purpose (serverAuth
/// for a server, clientAuth for a client); an EKU on any CA in the path constrains the leaf the same way
/// (as Apple and the Web PKI do).
///
/// anyExtendedKeyUsage: accepted wherever the extension is checked here, as OpenSSL and Go accept it. The Apple
/// profile's stricter rule — a leaf issued on or after 2019-07-01 must name serverAuth itself — is applied by
/// ``AppleServerProfileCheck``, and the Web PKI's (every leaf names its purpose) by ``LeafExtendedKeyUsageCheck``;
/// there anyExtendedKeyUsage does not suffice.
package struct ExtendedKeyUsageCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard let server = context.policy.sslServer else { return }
        let purpose = server ? ExtendedKeyUsageOID.serverAuth : ExtendedKeyUsageOID.clientAuth
        for (index, certificate) in context.certificates.enumerated() {
            guard let usages = certificate.extensions.extendedKeyUsage else { continue }
            if !usages.contains(purpose) && !usages.contains(ExtendedKeyUsageOID.anyExtendedKeyUsage) {
                findings.record(TrustRules.extendedKeyUsagePurpose, at: index)
            }
        }
    }
}
