import Foundation

/// Evaluates trust with one backend. `Sendable`: call it from any number of threads and tasks at once; this is
/// the concurrent path of Docs/Architecture.md, "Concurrency". Prepared anchor stores are built once per anchor set and shared read-only.
///
/// For each evaluation the core's ``ChainBuilder`` proposes candidate paths; each is judged by the core's rules
/// (signatures verified by the backend, revocation from validated CRLs, `CorePolicy`) and then by the library's
/// own verdict, which can only add failures; the first path with no failure wins. A path whose signature does not verify is discarded. When no path passes, the most
/// informative failure is reported.
public final class TrustEvaluator: Sendable {
    /// The backend that verifies candidate paths.
    public let backend: any TrustBackend
    /// Bounds on evaluation and path building (the parsing bounds apply when certificates are decoded).
    public let limits: Limits
    /// The caches in use.
    public let configuration: Configuration
    private let anchorContexts: AnchorContextCache
    private let resultCache: ResultCache?
    private let verifiedSignatures: VerifiedSignatureCache
    /// The system roots used when an evaluation's `anchorsOnly` is false.
    private let systemAnchors: @Sendable () -> [Certificate]
    /// The network, for evaluations that allow fetching; nil: never fetch.
    public let network: NetworkAccess?

    /// Creates an evaluator over `backend`; `configuration` sets the caches (all on by default). With `network`,
    /// evaluations that set ``TrustEvaluation/networkFetchAllowed`` may fetch missing issuers through it.
    public convenience init(
        backend: any TrustBackend, limits: Limits = .default, configuration: Configuration = .default,
        network: NetworkAccess? = nil
    ) {
        self.init(backend: backend, limits: limits, configuration: configuration, network: network) {
            SystemTrustStore.certificates
        }
    }

    /// Creates an evaluator whose system roots are `systemAnchors` instead of the process's ``SystemTrustStore``
    /// (for tests that compare with a command line run under another `SSL_CERT_FILE`).
    package init(
        backend: any TrustBackend, limits: Limits = .default, configuration: Configuration = .default,
        network: NetworkAccess? = nil, systemAnchors: @escaping @Sendable () -> [Certificate]
    ) {
        self.network = network
        self.backend = backend
        self.limits = limits
        self.configuration = configuration
        self.anchorContexts = AnchorContextCache(capacity: configuration.anchorStoreCacheCapacity)
        self.resultCache = configuration.resultCacheEnabled ? ResultCache(capacity: configuration.resultCacheCapacity) : nil
        self.verifiedSignatures = VerifiedSignatureCache(capacity: configuration.verifiedSignatureCacheCapacity)
        self.systemAnchors = systemAnchors
    }

    /// Result-cache counters: how many evaluations were served from the cache.
    public var cacheStatistics: CacheStatistics {
        guard let statistics = resultCache?.statistics else { return CacheStatistics() }
        return CacheStatistics(
            resultHits: statistics.hits, resultMisses: statistics.misses, resultEntries: statistics.entries)
    }

    /// Evaluates `evaluation` and returns its report. Never throws: backend failures become `otherError`.
    /// With the result cache on, a repeated evaluation within the same validity window returns the earlier
    /// report (with this call's verify date); an evaluation that allows network fetching is never served from it.
    public func evaluate(_ evaluation: TrustEvaluation) -> TrustReport {
        var report = evaluateCachedOrNot(evaluation)
        report.skippedCertificates = evaluation.skippedCertificates
        return report
    }

    private func evaluateCachedOrNot(_ evaluation: TrustEvaluation) -> TrustReport {
        // Validity is judged to the second (RFC 5280 §4.1.2.5): a fractional verify time is floored, as the
        // libraries do with their time_t.
        let date = Date(timeIntervalSince1970: (evaluation.verifyDate ?? Date()).timeIntervalSince1970.rounded(.down))
        // What the network gave may change from one call to the next (a responder down, then up): never cached.
        guard let resultCache, !evaluation.networkFetchAllowed else { return evaluateUncached(evaluation, date: date) }
        let key = ResultCacheKey(evaluation, backend: backend.name)
        if let cached = resultCache.report(for: key, at: date) { return cached }
        let report = evaluateUncached(evaluation, date: date)
        // A backend failure may be transient: never remember it.
        if report.result != .otherError {
            let window = ResultCacheValidityWindow(
                evaluation: evaluation, systemAnchors: systemAnchors(), date: date)
            resultCache.insert(report, for: key, window: window)
        }
        return report
    }

    /// Evaluates offline, then — when the evaluation allows fetching and the chain stops at a missing issuer —
    /// fetches that issuer (``IssuerFetch``) and evaluates again, as long as something new comes back; then, unless
    /// the revocation mode is `off`, fetches revocation answers for the chain (``RevocationFetch``) and evaluates
    /// once more with them.
    private func evaluateUncached(_ evaluation: TrustEvaluation, date: Date) -> TrustReport {
        var report = evaluateOffline(evaluation, date: date)
        guard evaluation.networkFetchAllowed, let network else { return report }
        var session = NetworkFetchSession(access: network, limits: limits)
        var current = evaluation
        var fetchedFrom: [Certificate: String] = [:]
        var known = Set(evaluation.certificates + evaluation.additionalIntermediates)
        while let last = report.chain.last, report.checks.last?.contains(.missingIntermediate) == true {
            let found = IssuerFetch.issuers(of: last, known: known, session: &session, limits: limits)
            guard !found.isEmpty else { break }
            for (certificate, url) in found where known.insert(certificate).inserted {
                current.additionalIntermediates.append(certificate)
                fetchedFrom[certificate] = url
            }
            report = evaluateOffline(current, date: date)
        }
        if current.revocationMode != .off,
           RevocationFetch.fetch(
               for: report.chain, into: &current, session: &session, backend: backend, limits: limits, at: date) {
            report = evaluateOffline(current, date: date)
        }
        report.fetches = session.records
        if !fetchedFrom.isEmpty { report.fetchedFrom = report.chain.map { fetchedFrom[$0] } }
        return report
    }

    private func evaluateOffline(_ evaluation: TrustEvaluation, date: Date) -> TrustReport {
        let policies = evaluation.policies.isEmpty ? [TrustPolicy.basicX509] : evaluation.policies
        guard let leaf = evaluation.certificates.first else {
            return TrustReport(
                result: .otherError, chain: [], checks: [], error: nil, backend: backend.name,
                policy: policies[0], verifyDate: date, pathsTried: 0, notes: ["no certificate to evaluate"])
        }
        do {
            let systemAnchorCount = evaluation.anchorsOnly ? 0 : systemAnchors().count
            if let excess = EvaluationBudget.excess(of: evaluation, limits: limits, systemAnchorCount: systemAnchorCount) {
                var common = PathFindings(count: 1)
                common.record(.resourceLimit, at: 0)
                let refused = Attempt(
                    path: CandidatePath(certificates: [leaf], endsAtAnchor: false), common: common,
                    perPolicy: policies.map { _ in PathFindings(count: 1) }, notes: [excess])
                return try report(refused, evaluation: evaluation, policies: policies, date: date, tried: 0, alwaysTrusted: false)
            }
            return try evaluate(evaluation, leaf: leaf, policies: policies, date: date)
        } catch {
            let rule = TrustRules.backendError
            return TrustReport(
                result: .otherError, chain: [leaf], checks: [[.backendError]],
                error: TrustError(
                    check: .backendError, certificateIndex: 0,
                    message: "\(backend.name): \(error.message) (\(rule.citation))", rule: rule),
                backend: backend.name, policy: policies[0], verifyDate: date, pathsTried: 0, notes: [error.message],
                rules: [[.backendError: [rule]]])
        }
    }

    private struct Attempt {
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

    private func evaluate(
        _ evaluation: TrustEvaluation, leaf: Certificate, policies: [TrustPolicy], date: Date
    ) throws(BackendError) -> TrustReport {
        // The trust settings decide which certificates they make anchors, under which policy (TrustSettingsIndex).
        let settings = TrustSettingsIndex(evaluation.trustSettings)
        let settingAnchors = settings.isEmpty ? [] : settings.anchors(for: policies)
        let anchorContext = try anchorContexts.context(
            anchors: evaluation.anchors, alwaysTrust: settingAnchors,
            system: evaluation.anchorsOnly ? nil : { self.systemAnchors() }, backend: backend)
        let appAnchorSet = anchorContext.appSupplied
        let settingAnchorSet = anchorContext.alwaysTrusted
        let store = anchorContext.store
        // A path that ends at a certificate only the settings make an anchor is anchored for the policies whose
        // settings say so, not for the others (their constraints name another policy or host).
        func isAnchored(_ path: CandidatePath, under policy: TrustPolicy) -> Bool {
            guard path.endsAtAnchor, let last = path.certificates.last else { return false }
            guard settingAnchorSet.contains(last), !settings.isAnchor(last, under: policy) else { return true }
            return evaluation.anchors.contains(last)
                || (!evaluation.anchorsOnly && systemAnchors().contains(last))
        }
        // The pool: presented certificates after the leaf, then --intermediates, then the certificates with trust
        // settings that are not anchors (as trustd finds issuers in the keychains that hold the settings, so a path
        // through a distrusted certificate is found and denied); each once, anchors left out (they are found
        // through the anchor index).
        var seen = Set<Certificate>(minimumCapacity: evaluation.certificates.count + evaluation.additionalIntermediates.count)
        seen.insert(leaf)
        let settingCertificates = settings.isEmpty ? [] : evaluation.trustSettings.certificates
        let pool = (evaluation.certificates.dropFirst() + evaluation.additionalIntermediates + settingCertificates).filter {
            !anchorContext.anchorSet.contains($0) && seen.insert($0).inserted
        }

        var buildLimits = limits
        // maxDepth counts intermediates; the builder's limit counts certificates (leaf and anchor included).
        buildLimits.maxDepth = max(limits.maxDepth, evaluation.maxDepth + 2)
        var builder = ChainBuilder(
            leaf: leaf, pool: pool, anchorSet: anchorContext.anchorSet, anchorIndex: anchorContext.index, date: date,
            limits: buildLimits, poolIsUnique: true)

        var signatures = PathSignatureCheck(
            backend: backend, verified: verifiedSignatures,
            anchors: store)
        var revocation = RevocationCheck(
            backend: backend, requireCRLNumber: policies.contains { TrustRules.crlNumber.isEnforced(by: $0.profile) })
        func attempt(_ path: CandidatePath) throws(BackendError) -> Attempt {
            if let excess = EvaluationBudget.nameConstraintExcess(of: path.certificates, limits: limits) {
                // Neither the backend nor the policy sees a path whose checks would exceed the budget.
                var common = PathFindings(count: path.certificates.count)
                common.record(.resourceLimit, at: 0)
                let none = PathFindings(count: path.certificates.count)
                return Attempt(path: path, common: common, perPolicy: policies.map { _ in none }, notes: [excess])
            }
            // The core's rules first: signatures (verified by the library), revocation, then every policy.
            var findings = PathFindings(count: path.certificates.count)
            try signatures.check(path, into: &findings)
            let revocationOutcome = try revocation.check(path, evaluation: evaluation, at: date, into: &findings)
            var perPolicy: [PathFindings] = []
            var everything = findings
            // Pins are compared with SPKI digests from the backend's library (no digest is written by hand).
            let spkiDigests = evaluation.pins.isEmpty ? [] : try path.certificates.map { certificate throws(BackendError) in
                try backend.digest(.sha256, of: certificate.publicKey.derEncoded)
            }
            for policy in policies {
                let policyPath = CandidatePath(
                    certificates: path.certificates, endsAtAnchor: isAnchored(path, under: policy))
                let context = PathContext(
                    path: policyPath, policy: policy, date: date, pins: evaluation.pins,
                    trustSettings: evaluation.trustSettings, maxDepth: evaluation.maxDepth,
                    anchorIsAppSupplied: policyPath.endsAtAnchor && appAnchorSet.contains(path.certificates.last!),
                    spkiDigests: spkiDigests, limits: limits, trustSettingsIndex: settings)
                let core = CorePolicy.findings(for: context)
                perPolicy.append(core)
                everything.merge(core)
            }
            // The core alone decides; the library's own verifier runs only in the audit mode, on the path the core
            // chose (audit(_:) below).
            var result = Attempt(
                path: path, common: findings, perPolicy: perPolicy, notes: findings.notes + perPolicy.flatMap(\.notes))
            if configuration.libraryAudit {
                result.coreFindings = everything
                result.usableCRLs = revocationOutcome.usableCRLs
            }
            if Self.asksForRevocation(evaluation) { result.revocation = revocationOutcome.statuses }
            // Errors the user's trust settings allow for a certificate are not reported for it.
            if !settings.isEmpty {
                result.allow(policies.map { settings.allowedErrors(path.certificates, under: $0) })
            }
            return result
        }

        // The audit mode: the library's own verifier on the path the core chose; what no core rule and no known
        // deviation explains is a LibraryVerdict failure of its own (LibraryVerdictInterpretation).
        func audit(_ chosen: inout Attempt) throws(BackendError) {
            // A path with a key the core refuses is never shown to the library (its verifier would spend on that
            // key the work the core bounds; the path already fails with a fatal WeakKeySize).
            guard configuration.libraryAudit,
                !chosen.path.certificates.contains(where: { $0.publicKey.encodingProblem != nil })
            else { return }
            var weighed = chosen.coreFindings ?? chosen.findings
            weighed.merge(chosen.common)
            let before = weighed
            let facts = try backend.libraryVerdict(on: chosen.path, anchors: store, at: date, crls: chosen.usableCRLs)
                + LibraryVerdictInterpretation.digestFacts(of: chosen.path.certificates, backend: backend)
            LibraryVerdictInterpretation.weigh(
                facts, on: chosen.path.certificates, at: date, from: backend.name, into: &weighed)
            let added = weighed.additions(since: before)
            chosen.common.merge(added)
            chosen.notes += added.notes
        }

        var tried = 0
        var best: Attempt?
        var truncated: [[Certificate]] = []
        var signatureFailures: [Certificate: Int] = [:]
        while let candidate = builder.next() {
            tried += 1
            let result = try attempt(candidate)
            if let broken = result.checks.firstIndex(where: { $0.contains(.signature) }) {
                // The link from `broken` to its issuer does not verify: discard this path (Docs/TrustModel.md).
                truncated.append(Array(candidate.certificates.prefix(broken + 1)))
                signatureFailures[candidate.certificates[broken], default: 0] += 1
                continue
            }
            if result.failureCount == 0 {
                // The core's choice. A passing path through a certificate the settings trust (trustRoot,
                // trustAsRoot) reads proceed. The audit mode judges this path and no other.
                let trusted = policies.map { settings.grantsProceed(candidate.certificates, under: $0) }
                var chosen = result
                try audit(&chosen)
                return try report(chosen, evaluation: evaluation, policies: policies, date: date, tried: tried,
                              alwaysTrusted: chosen.failureCount == 0 && trusted.allSatisfy { $0 }, policyTrusted: trusted)
            }
            if best.map({ result.rank < $0.rank }) ?? true { best = result }
        }

        if best == nil {
            // No anchored path survived: report the path that got furthest.
            var incomplete = truncated
            if let deadEnd = builder.bestDeadEnd { incomplete.append(deadEnd) }
            if incomplete.isEmpty { incomplete = [[leaf]] }
            let furthest = incomplete.max { $0.count < $1.count } ?? [leaf]
            tried += 1
            var result = try attempt(CandidatePath(certificates: furthest, endsAtAnchor: false))
            if builder.bestDeadEndIsCutByDepth, furthest == builder.bestDeadEnd {
                // The path was not followed past the depth limit: its issuer is not missing, the path is too long.
                result.remove(.missingIntermediate, at: furthest.count - 1)
                result.common.record(TrustRules.maxDepth, at: 0, note: "the path continues past the maximum depth")
            }
            for (index, certificate) in furthest.enumerated() where signatureFailures[certificate] != nil {
                result.common.record(TrustRules.signature, at: index)
                if index == furthest.count - 1 { result.common.record(TrustRules.missingIntermediate, at: index) }
                result.remove(.anchorTrusted, at: index)
            }
            best = result
        }
        var final = best!
        if builder.limitReached { final.common.record(TrustRules.pathBuildingLimit, at: 0) }
        try audit(&final)
        // A policy that passes on its own reads proceed when the settings trust a certificate of the path for it.
        return try report(final, evaluation: evaluation, policies: policies, date: date, tried: tried, alwaysTrusted: false,
                          policyTrusted: policies.map { settings.grantsProceed(final.path.certificates, under: $0) })
    }

    private func report(
        _ attempt: Attempt, evaluation: TrustEvaluation, policies: [TrustPolicy], date: Date, tried: Int,
        alwaysTrusted: Bool, policyTrusted: [Bool]? = nil
    ) throws(BackendError) -> TrustReport {
        let chain = attempt.path.certificates
        // Fingerprints (and the leaf digest exceptions are bound to) come from the backend's library: the leaf's
        // now when exceptions may apply, the chain's on first use of the report's.
        let leafSHA256 = evaluation.exceptions == nil ? nil : try chain.first.map { leaf throws(BackendError) in
            try backend.digest(.sha256, of: leaf.derEncoded)
        }
        func outcome(_ findings: PathFindings, _ policy: TrustPolicy, alwaysTrusted: Bool = alwaysTrusted)
            -> (PolicyResult, rules: [[TrustCheck: [TrustRule]]])
        {
            let checks = findings.checks
            let result = TrustAggregator.result(
                checks: checks, leafSHA256: leafSHA256, alwaysTrusted: alwaysTrusted,
                exceptions: evaluation.exceptions)
            var error: TrustError?
            if !result.isTrusted, let (check, index) = TrustAggregator.primaryFailure(checks) {
                let rule = findings.rule(for: check, at: index) ?? TrustRules.generic(for: check)
                error = TrustError(
                    check: check, certificateIndex: index,
                    message: TrustMessages.message(
                        for: check, rule: rule, certificate: chain[index], policy: policy, date: date)
                        + (check == .resourceLimit ? EvaluationBudget.detail(in: attempt.notes) : "")
                        + (check == .libraryVerdict
                            ? ": " + LibraryVerdictInterpretation.reasons(in: attempt.notes, at: index).joined(separator: "; ")
                            : ""),
                    rule: rule)
            }
            // Accepted exceptions: as trustd, a check an exception allows is not recorded as failed.
            let accepted = result == .proceed && checks.contains { !$0.isEmpty }
            return (PolicyResult(policy: policy, result: result, checks: accepted ? checks.map { _ in [] } : checks,
                                 error: error),
                    accepted ? findings.rules.map { _ in [:] } : findings.rules)
        }
        let perPolicy = policies.indices.map {
            outcome(attempt.findings(forPolicy: $0), policies[$0], alwaysTrusted: policyTrusted?[$0] ?? alwaysTrusted).0
        }
        // The overall verdict sees every failure; its error and policy are those of the policy that failed worst.
        let primary = TrustAggregator.primaryFailure(attempt.checks)
        let failing = primary.flatMap { primary in
            policies.indices.first { attempt.checks(forPolicy: $0)[primary.index].contains(primary.check) }
        } ?? 0
        let (overall, rules) = outcome(attempt.findings, policies[failing])
        var report = TrustReport(
            result: overall.result, chain: chain, checks: overall.checks, error: overall.error, backend: backend.name,
            policy: policies[failing], verifyDate: date, pathsTried: tried, notes: attempt.notes,
            policyResults: perPolicy, rules: rules)
        report.fingerprintChain(with: backend)
        report.revocation = attempt.revocation
        report.libraryVerdict = LibraryVerdictInterpretation.reasons(in: attempt.notes)
        return report
    }

    /// True when `evaluation` asks for revocation checking: a source is given or an answer required, in a mode
    /// other than `off`.
    private static func asksForRevocation(_ evaluation: TrustEvaluation) -> Bool {
        evaluation.revocationMode != .off
            && (!evaluation.crls.isEmpty || !evaluation.ocspResponses.isEmpty || evaluation.requireRevocation
                || !evaluation.fetchedCRLs.isEmpty || !evaluation.fetchedOCSPResponses.isEmpty)
    }
}
