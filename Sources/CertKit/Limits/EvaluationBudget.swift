/// The evaluation bounds of ``Limits``, checked before the work they bound is done. Going over one is a fatal
/// ``TrustCheck/resourceLimit`` failure: the work is never attempted, so it can never pass.
enum EvaluationBudget {
    /// Notes explaining a resource limit start with this, so the reported error can quote them.
    static let notePrefix = "resource limit: "

    /// Why `evaluation` must not be evaluated at all (too many pool certificates, anchors, CRLs, CRL entries or OCSP responses),
    /// or nil.
    static func excess(of evaluation: TrustEvaluation, limits: Limits, systemAnchorCount: Int) -> String? {
        // A certificate left out because it does not decode still counts: garbage cannot get round the bound.
        let pool = max(0, evaluation.certificates.count - 1) + evaluation.additionalIntermediates.count
            + evaluation.skippedCertificates.count
        if pool > limits.maxPoolCertificates {
            return note("\(pool) pool certificates, more than Limits.maxPoolCertificates (\(limits.maxPoolCertificates))")
        }
        let settings = evaluation.trustSettings
        let system = evaluation.anchorsOnly ? 0 : systemAnchorCount
        let anchors = evaluation.anchors.count + settings.certificates.count + system
        if anchors > limits.maxAnchors {
            return note("\(anchors) anchors and trust-setting certificates, more than Limits.maxAnchors (\(limits.maxAnchors))")
        }
        if evaluation.crls.count > limits.maxCRLs {
            return note("\(evaluation.crls.count) CRLs, more than Limits.maxCRLs (\(limits.maxCRLs))")
        }
        let entries = evaluation.crls.reduce(0) { $0 + $1.revokedSerialNumbers.count }
        if entries > limits.maxCRLEntries {
            return note("\(entries) CRL entries in all, more than Limits.maxCRLEntries (\(limits.maxCRLEntries))")
        }
        if evaluation.ocspResponses.count > limits.maxOCSPResponses {
            return note("\(evaluation.ocspResponses.count) OCSP responses, more than Limits.maxOCSPResponses (\(limits.maxOCSPResponses))")
        }
        return nil
    }

    /// Why checking the name constraints of `path` would take too many comparisons, or nil. For each CA with
    /// constraints and each certificate below it that the constraints apply to: (its SAN entries, its subject,
    /// its subject email addresses, and for the leaf the name being matched) × (the CA's constraints), summed.
    static func nameConstraintExcess(of path: [Certificate], limits: Limits) -> String? {
        var total = 0
        for caIndex in path.indices.dropFirst() {
            guard let constraints = path[caIndex].extensions.nameConstraints else { continue }
            let bases = constraints.permitted.count + constraints.excluded.count
            for index in 0..<caIndex where index == 0 || !path[index].isSelfIssued {
                let certificate = path[index]
                let names = (certificate.extensions.subjectAlternativeNames?.count ?? 0) + 1
                    + certificate.subject.emailAddresses.count + (index == 0 ? 1 : 0)
                total += names * bases
            }
        }
        guard total > limits.maxNameConstraintComparisons else { return nil }
        return note(
            "name constraints would need \(total) comparisons, more than Limits.maxNameConstraintComparisons "
                + "(\(limits.maxNameConstraintComparisons))")
    }

    /// The note for a path whose policy graph (RFC 5280 §6.1) would have more than `limit` nodes: certificate-policy
    /// processing stops there (the graph grows as it is built, so it is bounded while being built, not before).
    static func policyGraphNote(limit: Int) -> String {
        note("the policy graph would have more than \(limit) nodes, more than Limits.maxPolicyGraphNodes")
    }

    /// The first resource-limit note of `notes` without its prefix, as `: <detail>`, or "".
    static func detail(in notes: [String]) -> String {
        guard let note = notes.first(where: { $0.hasPrefix(notePrefix) }) else { return "" }
        return ": " + note.dropFirst(notePrefix.count)
    }

    private static func note(_ text: String) -> String { notePrefix + text }
}
