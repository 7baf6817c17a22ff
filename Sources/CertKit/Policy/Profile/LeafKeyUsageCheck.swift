/// `KeyUsage` of a TLS leaf (`TrustRules/tlsLeafKeyUsage`): under the SSL policies the leaf's keyUsage, when
/// present, allows the key to take part in a handshake — digitalSignature, keyEncipherment or keyAgreement
/// for a server, digitalSignature or keyAgreement for a client — as OpenSSL's `sslserver`/`sslclient` purposes
/// and pyca/cryptography require. (An empty keyUsage never decodes: RFC 5280 §4.2.1.3 requires a bit set.)
package struct LeafKeyUsageCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard let server = context.policy.sslServer, context.enforces(TrustRules.tlsLeafKeyUsage),
              let usage = context.certificates.first?.extensions.keyUsage else { return }
        let allowed: KeyUsage = server ? [.digitalSignature, .keyEncipherment, .keyAgreement] : [.digitalSignature, .keyAgreement]
        if usage.isDisjoint(with: allowed) {
            findings.record(
                TrustRules.tlsLeafKeyUsage, at: 0,
                note: "keyUsage \(usage.names.joined(separator: ", ")) does not allow a TLS \(server ? "server" : "client") key")
        }
    }
}
