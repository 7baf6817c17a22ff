/// `UnparseableExtension` (`TrustRules/unparseableExtension`, trustd's name): the extensions certkit decodes
/// only for policy processing (policyConstraints, policyMappings, inhibitAnyPolicy) decode. (An undecodable extension certkit
/// understands is `MalformedExtension`.)
package struct UnparseableExtensionCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.enforces(TrustRules.unparseableExtension) else { return }
        for (index, certificate) in context.certificates.enumerated() where !certificate.extensions.unparseable.isEmpty {
            findings.record(
                TrustRules.unparseableExtension, at: index,
                note: "cannot decode \(certificate.extensions.unparseable.joined(separator: ", "))")
        }
    }
}
