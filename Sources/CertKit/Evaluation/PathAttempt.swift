/// One candidate path as the core judged it: the failures that do not depend on the policy, each policy's own,
/// the notes, and what the audit mode and the report need. Lower ``rank`` is a better path to report.
struct PathAttempt {
    var path: CandidatePath
    /// Failures that do not depend on the policy: signatures, revocation, limits, the audit's LibraryVerdict.
    var common: PathFindings
    /// The core's policy findings, one per policy of the evaluation.
    var perPolicy: [PathFindings]
    var notes: [String]
    /// Per certificate, whether and how revocation was checked.
    var revocation: [RevocationStatus] = []
    /// What the core found before the trust settings allowed anything (what explains a library's refusal in
    /// the audit mode), and the CRLs it validated for the path (what the library is given).
    var coreFindings: PathFindings? = nil
    var usableCRLs: [CertificateRevocationList] = []
    /// Certificate Transparency for the leaf, under the first policy that evaluated it (nil: none did).
    var transparency: CertificateTransparencyStatus? = nil

    /// Every failure, over all policies, with its rules.
    var findings: PathFindings {
        var union = common
        for policyFindings in perPolicy { union.merge(policyFindings) }
        return union
    }

    /// Every failure, over all policies.
    var checks: [Set<TrustCheck>] { findings.checks }

    /// The failures one policy sees, with their rules.
    func findings(forPolicy index: Int) -> PathFindings {
        var union = common
        union.merge(perPolicy[index])
        return union
    }

    /// The failures one policy sees.
    func checks(forPolicy index: Int) -> [Set<TrustCheck>] { findings(forPolicy: index).checks }

    /// Drops the failures the trust settings allow (`allowed[policy][certificate]`): each policy's findings
    /// become its own view without what it allows, and a policy-independent failure stays common only when
    /// no policy allows it.
    mutating func allow(_ allowed: [[Set<TrustCheck>]]) {
        guard allowed.contains(where: { $0.contains { !$0.isEmpty } }) else { return }
        for policy in perPolicy.indices {
            var merged = common
            merged.merge(perPolicy[policy])
            for (index, checks) in allowed[policy].enumerated() {
                for check in checks { merged.remove(check, at: index) }
            }
            perPolicy[policy] = merged
        }
        for (index, checks) in common.checks.enumerated() {
            for check in checks where allowed.contains(where: { $0[index].contains(check) }) {
                common.remove(check, at: index)
            }
        }
    }

    /// Removes `check` from certificate `index`, whichever findings recorded it.
    mutating func remove(_ check: TrustCheck, at index: Int) {
        common.remove(check, at: index)
        for policy in perPolicy.indices { perPolicy[policy].remove(check, at: index) }
    }

    var failureCount: Int { checks.reduce(0) { $0 + $1.count } }
    var worstSeverity: Int { checks.flatMap { $0 }.map(\.severity.rawValue).max() ?? 0 }
    var topPriority: Int { checks.flatMap { $0 }.map(\.priority).max() ?? 0 }

    /// Lower is better: anchored paths first, then the least severe, then the fewest failures, then the
    /// least important error, then the longest path.
    var rank: (Int, Int, Int, Int, Int) {
        (path.endsAtAnchor ? 0 : 1, worstSeverity, failureCount, topPriority, -path.certificates.count)
    }
}
