/// Certificate policies (RFC 5280 §4.2.1.4–§4.2.1.5, §4.2.1.11, §4.2.1.14 and §6.1), reported as trustd reports
/// its policy processing, under `PolicyConstraints`:
/// - `TrustRules/policyConstraintsCritical` (rfc5280): policyConstraints is critical (RFC 5280 §4.2.1.11);
/// - `TrustRules/certificatePoliciesUnique`: no certificatePolicies names a policy twice (`MalformedExtension`);
/// - `TrustRules/policyMappingAnyPolicy`: no certificate below the anchor maps to or from anyPolicy (§6.1.4(a));
/// - `TrustRules/explicitPolicy`: RFC 5280 §6.1.2–§6.1.5 with user-initial-policy-set {anyPolicy}, over the
///   policy graph of RFC 9618 (`PolicyProcessing`): policy mappings, inhibitPolicyMapping, inhibitAnyPolicy and
///   requireExplicitPolicy applied, self-issued certificates not counted. The certificate where explicit_policy
///   is 0 while the graph is NULL fails; a graph over `Limits/maxPolicyGraphNodes` nodes is a fatal
///   `ResourceLimit` on the certificate being processed.
package struct PolicyConstraintsCheck: PathCheck {
    static let anyPolicy = PolicyGraph.anyPolicy

    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        let certificates = context.certificates
        if context.enforces(TrustRules.policyConstraintsCritical) {
            for (index, certificate) in certificates.enumerated()
            where certificate.extensions.first(ExtensionOID.policyConstraints)?.isCritical == false {
                findings.record(TrustRules.policyConstraintsCritical, at: index)
            }
        }
        if context.enforces(TrustRules.certificatePoliciesUnique) {
            for (index, certificate) in certificates.enumerated() {
                let policies = certificate.extensions.certificatePolicies
                guard policies.count > 1, Set(policies).count < policies.count else { continue }
                findings.record(
                    TrustRules.certificatePoliciesUnique, at: index,
                    note: "certificatePolicies names \(MessageText.summary(Self.repeated(policies))) more than once")
            }
        }
        // The certificates RFC 5280 §6.1 processes: the path without its trust anchor.
        let processed = context.anchorIndex == nil ? certificates.indices : certificates.indices.dropLast()
        if context.enforces(TrustRules.policyMappingAnyPolicy) {
            for index in processed
            where certificates[index].extensions.policyMappings?.contains(where: {
                $0.issuerDomainPolicy == Self.anyPolicy || $0.subjectDomainPolicy == Self.anyPolicy
            }) == true {
                findings.record(TrustRules.policyMappingAnyPolicy, at: index, note: "policyMappings maps to or from anyPolicy")
            }
        }
        guard context.enforces(TrustRules.explicitPolicy) else { return }
        // Whether processing can fail depends only on requireExplicitPolicy (`PolicyProcessing.canFail`): asked of
        // the certificates first, so that the names are compared (self-issued) only when the graph is built.
        guard processed.contains(where: { certificates[$0].extensions.policyConstraints?.requireExplicitPolicy != nil })
        else { return }
        let path = Array(processed.reversed())
        let inputs = path.map { PolicyCertificate(certificates[$0]) }
        guard PolicyProcessing.canFail(inputs) else { return }
        let limit = context.limits.maxPolicyGraphNodes
        switch PolicyProcessing.process(inputs, maxNodes: limit).outcome {
        case .valid:
            break
        case .noValidPolicy(let position):
            findings.record(
                TrustRules.explicitPolicy, at: path[position],
                note: "an explicit policy is required and no certificate policy is valid for the path")
        case .graphTooLarge(let position):
            findings.record(TrustRules.resourceLimit, at: path[position])
            findings.notes.append(EvaluationBudget.policyGraphNote(limit: limit))
        }
    }

    /// The policies `policies` names more than once, each once, in order.
    static func repeated(_ policies: [String]) -> [String] {
        var seen = Set<String>()
        var reported = Set<String>()
        return policies.filter { !seen.insert($0).inserted && reported.insert($0).inserted }
    }
}
