/// `NameConstraints` over the whole path (`TrustRules/nameConstraints`, RFC 5280 §4.2.1.10): each CA's
/// constraints apply to every certificate below it (self-issued intermediates excepted), and, under the SSL and
/// email policies, to the name that was actually matched. A violation is recorded on the certificate whose name
/// violates it. A CA whose nameConstraints do not decode constrains the leaf to nothing (recorded on the leaf).
///
/// Profile differences:
/// - `TrustRules/nameConstraintsValidNames` (rfc5280, webpki): a subjectAltName that is not a valid name of its
///   type never satisfies a permitted subtree of its form.
/// - `TrustRules/nameConstraintsOnCommonName` (webpki): dNSName constraints also apply to the leaf's subject
///   commonName when the leaf has no subjectAltName at all and the commonName is a valid host name.
package struct NameConstraintsCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        let certificates = context.certificates
        guard let leaf = certificates.first else { return }
        var matchedNames = context.policy.expectedNames
        if case .sslClient = context.policy {
            // Several identities: the constraints apply to those the leaf actually carries.
            matchedNames = matchedNames.filter { Self.leaf(leaf, carries: $0) }
        }
        let validNamesOnly = context.enforces(TrustRules.nameConstraintsValidNames)
        var commonNames: [GeneralName] = []
        if context.enforces(TrustRules.nameConstraintsOnCommonName), leaf.extensions.subjectAlternativeNames == nil {
            commonNames = leaf.subject.attributes(oid: "2.5.4.3")
                .filter { NameSyntax.isHostName($0) && IPAddressParsing.parse($0) == nil }.map { .dnsName($0) }
        }
        for caIndex in context.issuerIndices {
            if certificates[caIndex].extensions.malformed.contains(ExtensionOID.nameConstraints) {
                // Constraints that do not decode cannot be shown to allow the leaf's names: fail closed.
                findings.record(TrustRules.nameConstraints, at: 0, note: "the nameConstraints of [\(caIndex)] do not decode")
                continue
            }
            guard let constraints = certificates[caIndex].extensions.nameConstraints else { continue }
            let compiled = CompiledNameConstraints(constraints)
            for index in 0..<caIndex {
                let certificate = certificates[index]
                if index > 0 && certificate.isSelfIssued { continue }
                let extra = index == 0 ? matchedNames : []
                let violations = compiled.violations(of: certificate, extraNames: extra, validNamesOnly: validNamesOnly)
                if !violations.isEmpty {
                    let invalidOnly = violations.allSatisfy { !NameSyntax.isValid($0) }
                    findings.record(
                        validNamesOnly && invalidOnly ? TrustRules.nameConstraintsValidNames : TrustRules.nameConstraints,
                        at: index, note: "outside the constraints of [\(caIndex)]: \(MessageText.summary(violations.map(\.description)))")
                } else if index == 0, !commonNames.isEmpty,
                          commonNames.contains(where: { !compiled.isAllowed($0) }) {
                    findings.record(TrustRules.nameConstraintsOnCommonName, at: 0, note: "subject commonName outside the dNSName constraints of [\(caIndex)]")
                }
            }
        }
    }

    private static func leaf(_ leaf: Certificate, carries name: GeneralName) -> Bool {
        let sans = leaf.extensions.subjectAlternativeNames ?? []
        switch name {
        case .dnsName(let host): return HostnameMatcher.matches(.dns(host), subjectAltNames: sans)
        case .ipAddress(let address): return HostnameMatcher.matches(.ip(address), subjectAltNames: sans)
        case .email(let address): return PeerNameCheck.carries(leaf, email: address)
        default: return false
        }
    }
}
