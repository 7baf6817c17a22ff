/// `PolicyConstraints`, as trustd checks it:
/// - `TrustRules/policyConstraintsCritical` (rfc5280): policyConstraints is critical (RFC 5280 §4.2.1.11);
/// - `TrustRules/explicitPolicy` (apple, rfc5280): RFC 5280 §6.1's explicit_policy, without policy mappings.
///   Going down from the certificate below the anchor to the leaf, the set of valid policies starts as
///   {anyPolicy} and becomes the intersection with each certificate's certificatePolicies (anyPolicy in either
///   keeps the other side; no certificatePolicies empties it). explicit_policy starts at n + 1 and drops by one
///   after each non-self-issued certificate; a requireExplicitPolicy of r lowers it to r. A certificate where it
///   has reached 0 while the set is empty fails.
package struct PolicyConstraintsCheck: PathCheck {
    static let anyPolicy = "2.5.29.32.0"

    public init() {}

    public func check(_ context: PathContext, into findings: inout PathFindings) {
        if context.enforces(TrustRules.policyConstraintsCritical) {
            for (index, certificate) in context.certificates.enumerated()
            where certificate.extensions.first(ExtensionOID.policyConstraints)?.isCritical == false {
                findings.record(TrustRules.policyConstraintsCritical, at: index)
            }
        }
        if context.enforces(TrustRules.explicitPolicy), let index = Self.explicitPolicyFailure(context) {
            findings.record(
                TrustRules.explicitPolicy, at: index,
                note: "an explicit policy is required and no certificate policy is valid for the path")
        }
    }

    /// The index of the certificate where an explicit policy was required and none was valid, or nil.
    static func explicitPolicyFailure(_ context: PathContext) -> Int? {
        let certificates = context.certificates
        // The certificates processed, top (below the anchor) to the leaf, with their path indices.
        let processed = Array((context.anchorIndex == nil ? certificates.indices : certificates.indices.dropLast()).reversed())
        guard processed.contains(where: { certificates[$0].extensions.policyConstraints?.requireExplicitPolicy != nil })
        else { return nil }
        var valid: Set<String>? = [anyPolicy]  // nil: the valid_policy_tree is NULL
        var explicitPolicy = processed.count + 1
        for (position, index) in processed.enumerated() {
            let extensions = certificates[index].extensions
            // §6.1.3(d)(e): the valid policies.
            let policies = Set(extensions.certificatePolicies)
            if policies.isEmpty {
                valid = nil
            } else if let current = valid, !policies.contains(anyPolicy) {
                valid = current.contains(anyPolicy) ? policies : current.intersection(policies)
                if valid?.isEmpty == true { valid = nil }
            }
            let require = extensions.policyConstraints?.requireExplicitPolicy
            if position < processed.count - 1 {
                // §6.1.3(f), then §6.1.4(h)(i).
                if valid == nil && explicitPolicy == 0 { return index }
                if !certificates[index].isSelfIssued && explicitPolicy > 0 { explicitPolicy -= 1 }
                if let require, require < explicitPolicy { explicitPolicy = require }
            } else {
                // The leaf: §6.1.5(a)(b), then (g).
                if explicitPolicy > 0 { explicitPolicy -= 1 }
                if require == 0 { explicitPolicy = 0 }
                if valid == nil && explicitPolicy == 0 { return index }
            }
        }
        return nil
    }
}
