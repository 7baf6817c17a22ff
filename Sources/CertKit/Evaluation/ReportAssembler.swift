import Foundation

/// Turns the chosen ``PathAttempt`` into the ``TrustReport``: the verdict of each policy and overall
/// (``TrustAggregator``: exceptions, proceed), the primary failure and its message, the rules, the revocation
/// statuses, the library's reasons and the chain's fingerprints.
struct ReportAssembler {
    let evaluation: TrustEvaluation
    let policies: [TrustPolicy]
    let date: Date
    let backend: any TrustBackend
    /// The evaluator's token for the fingerprints kept with certificates.
    let fingerprintOwner: FingerprintOwner

    /// The report of `attempt` after `tried` paths. `alwaysTrusted`: the settings grant proceed to every policy;
    /// `policyTrusted`, per policy, whether they grant it to that one (nil: as `alwaysTrusted`).
    func report(
        _ attempt: PathAttempt, tried: Int, alwaysTrusted: Bool, policyTrusted: [Bool]? = nil
    ) throws(BackendError) -> TrustReport {
        let chain = attempt.path.certificates
        // The leaf digest exceptions are bound to comes from the backend's library, only when exceptions may apply.
        let leafSHA256 = evaluation.exceptions == nil ? nil : try chain.first.map { leaf throws(BackendError) in
            try fingerprint(of: leaf)
        }
        let perPolicy = policies.indices.map {
            outcome(
                attempt, attempt.findings(forPolicy: $0), policies[$0], leafSHA256: leafSHA256,
                alwaysTrusted: policyTrusted?[$0] ?? alwaysTrusted
            ).result
        }
        // The overall verdict sees every failure; its error and policy are those of the policy that failed worst.
        let primary = TrustAggregator.primaryFailure(attempt.checks)
        let failing = primary.flatMap { primary in
            policies.indices.first { attempt.checks(forPolicy: $0)[primary.index].contains(primary.check) }
        } ?? 0
        let (overall, rules) = outcome(
            attempt, attempt.findings, policies[failing], leafSHA256: leafSHA256, alwaysTrusted: alwaysTrusted)
        var report = TrustReport(
            result: overall.result, chain: chain, checks: overall.checks, error: overall.error, backend: backend.name,
            policy: policies[failing], verifyDate: date, pathsTried: tried, notes: attempt.notes,
            policyResults: perPolicy, rules: rules)
        report.fingerprints = fingerprints(of: chain, leafSHA256: leafSHA256)
        report.revocation = attempt.revocation
        report.certificateTransparency = attempt.transparency
        report.libraryVerdict = LibraryVerdictInterpretation.reasons(in: attempt.notes)
        return report
    }

    /// The verdict of `findings` under `policy`, with its primary error and the rules per certificate.
    private func outcome(
        _ attempt: PathAttempt, _ findings: PathFindings, _ policy: TrustPolicy, leafSHA256: [UInt8]?,
        alwaysTrusted: Bool
    ) -> (result: PolicyResult, rules: [[TrustCheck: [TrustRule]]]) {
        let checks = findings.checks
        let result = TrustAggregator.result(
            checks: checks, leafSHA256: leafSHA256, alwaysTrusted: alwaysTrusted, exceptions: evaluation.exceptions)
        var error: TrustError?
        if !result.isTrusted, let (check, index) = TrustAggregator.primaryFailure(checks) {
            let rule = findings.rule(for: check, at: index) ?? TrustRules.generic(for: check)
            error = TrustError(
                check: check, certificateIndex: index,
                message: TrustMessages.message(
                    for: check, rule: rule, certificate: attempt.path.certificates[index], policy: policy, date: date)
                    + detail(of: check, at: index, in: attempt.notes),
                rule: rule)
        }
        // Accepted exceptions: as trustd, a check an exception allows is not recorded as failed.
        let accepted = result == .proceed && checks.contains { !$0.isEmpty }
        return (
            PolicyResult(policy: policy, result: result, checks: accepted ? checks.map { _ in [] } : checks, error: error),
            accepted ? findings.rules.map { _ in [:] } : findings.rules
        )
    }

    /// The SHA-256 of each certificate of `chain` by the backend's library (the leaf's reused when already
    /// computed); empty when the library cannot compute one (then no exception can be made from the report).
    private func fingerprints(of chain: [Certificate], leafSHA256: [UInt8]?) -> [[UInt8]] {
        do throws(BackendError) {
            return try chain.indices.map { index throws(BackendError) in
                if index == 0, let leafSHA256 { return leafSHA256 }
                return try fingerprint(of: chain[index])
            }
        } catch {
            return []
        }
    }

    /// The SHA-256 of `certificate` by the backend's library, once per certificate object for this evaluator (an
    /// anchor or a shared intermediate is not digested again on every evaluation).
    private func fingerprint(of certificate: Certificate) throws(BackendError) -> [UInt8] {
        try certificate.fingerprint(for: fingerprintOwner) { der throws(BackendError) in try backend.digest(.sha256, of: der) }
    }

    /// What the message of a primary failure adds from the notes: the budget exceeded, or the library's reasons.
    private func detail(of check: TrustCheck, at index: Int, in notes: [String]) -> String {
        switch check {
        case .resourceLimit: EvaluationBudget.detail(in: notes)
        case .libraryVerdict: ": " + LibraryVerdictInterpretation.reasons(in: notes, at: index).joined(separator: "; ")
        default: ""
        }
    }
}
