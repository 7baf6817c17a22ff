/// RFC 5280 CA rules for every issuer in the path: basicConstraints present and cA true (`BasicConstraints`,
/// `BasicConstraintsCA`), pathLenConstraint (`BasicConstraintsPathLen`), and keyCertSign when keyUsage is
/// present (`KeyUsage`). The anchor is held to the same rules as OpenSSL and GnuTLS hold it, except that a
/// self-signed version 1 anchor counts as a CA (old roots are v1).
package struct CAConstraintsCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        let certificates = context.certificates
        for index in context.issuerIndices {
            let issuer = certificates[index]
            let isV1Anchor = index == context.anchorIndex && issuer.version < 3 && issuer.isSelfIssued
            if let constraints = issuer.extensions.basicConstraints {
                if !constraints.isCA { findings.record(TrustRules.caFlag, at: index) }
            } else if !isV1Anchor {
                findings.record(TrustRules.basicConstraintsPresent, at: index)
            }
            if let usage = issuer.extensions.keyUsage, !usage.contains(.keyCertSign) {
                findings.record(TrustRules.caKeyCertSign, at: index)
            }
            // Intermediate CAs below this one; self-issued intermediates do not count (RFC 5280 §6.1.4).
            if PathLength.isExceeded(at: index, in: certificates) { findings.record(TrustRules.pathLength, at: index) }
        }
    }
}
