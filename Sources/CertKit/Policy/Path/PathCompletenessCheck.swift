/// A path that does not end at an anchor: `AnchorTrusted` when its last certificate is self-signed (a root
/// nobody trusts), `MissingIntermediate` when no issuer was found for it.
package struct PathCompletenessCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard !context.path.endsAtAnchor, let last = context.certificates.last else { return }
        let index = context.certificates.count - 1
        findings.record(last.isSelfSigned ? TrustRules.untrustedRoot : TrustRules.missingIntermediate, at: index)
    }
}
