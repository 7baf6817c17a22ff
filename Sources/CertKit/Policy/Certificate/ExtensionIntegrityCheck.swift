/// Extensions every certificate must get right: no unknown critical extension (`CriticalExtensions`),
/// no extension twice (`DuplicateExtension`), no undecodable known extension (`MalformedExtension`).
package struct ExtensionIntegrityCheck: PathCheck {
    /// Critical extensions outside `ExtensionOID.understood` that certkit processes all the same, in the policy
    /// rules (`PolicyConstraintsCheck`): policy mappings, policy constraints, inhibitAnyPolicy.
    static let toleratedCritical: Set<String> = ["2.5.29.33", "2.5.29.36", "2.5.29.54"]

    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        for (index, certificate) in context.certificates.enumerated() {
            let extensions = certificate.extensionsView
            // `unknownCritical` without the array it makes.
            if extensions.all.contains(where: {
                $0.isCritical && !ExtensionOID.understood.contains($0.oid) && !Self.toleratedCritical.contains($0.oid)
            }) {
                findings.record(TrustRules.criticalExtensions, at: index)
            }
            if !extensions.duplicates.isEmpty { findings.record(TrustRules.duplicateExtension, at: index) }
            if !extensions.malformed.isEmpty { findings.record(TrustRules.malformedExtension, at: index) }
        }
    }
}
