/// `NotCA` (`TrustRules/leafNotCA`, webpki): a certificate asserting cA is never accepted as the (issued) leaf.
package struct LeafNotCACheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.enforces(TrustRules.leafNotCA), context.leafIsIssued,
              context.certificates.first?.extensions.basicConstraints?.isCA == true else { return }
        findings.record(TrustRules.leafNotCA, at: 0)
    }
}
