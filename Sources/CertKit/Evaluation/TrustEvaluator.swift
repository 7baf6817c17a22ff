import Foundation

/// Evaluates trust with one backend. `Sendable`: call it from any number of threads and tasks at once; this is
/// the concurrent path of Docs/Architecture.md, "Concurrency". Prepared anchor stores are built once per anchor set and shared read-only.
///
/// For each evaluation the core's `ChainBuilder` proposes candidate paths; each is judged by the core alone
/// (`PathJudge`: signatures verified by the backend, revocation from validated answers, every policy, the trust
/// settings); the first path with no failure wins. A path whose signature does not verify is discarded. When no
/// path passes, the most informative failure is reported (`ReportAssembler`). In the audit mode
/// (``Configuration/libraryAudit``) the library's own verifier then judges the chosen path and can only add a
/// `LibraryVerdict` failure.
public final class TrustEvaluator: Sendable {
    /// The backend that verifies candidate paths.
    package let backend: any TrustBackend
    /// Bounds on evaluation and path building (the parsing bounds apply when certificates are decoded).
    public let limits: Limits
    /// The caches in use.
    public let configuration: Configuration
    private let anchorContexts: AnchorContextCache
    private let resultCache: ResultCache?
    private let verifiedSignatures: VerifiedSignatureCache
    /// This evaluator's token for the fingerprints its backend computed, kept with the certificates.
    private let fingerprintOwner = FingerprintOwner()
    /// The system roots used when an evaluation's `anchorsOnly` is false.
    private let systemAnchors: @Sendable () -> [Certificate]
    /// The network, for evaluations that allow fetching; nil: never fetch.
    public let network: NetworkAccess?

    /// Creates an evaluator over `backend`; `configuration` sets the caches (all on by default). With `network`,
    /// evaluations that set ``TrustEvaluation/networkFetchAllowed`` may fetch missing issuers through it.
    public convenience init(
        backend: Backend, limits: Limits = .default, configuration: Configuration = .default,
        network: NetworkAccess? = nil
    ) {
        self.init(backend: backend.implementation, limits: limits, configuration: configuration, network: network)
    }

    /// Creates an evaluator over a backend implementation, with the process's system roots.
    package convenience init(
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
    package var cacheStatistics: CacheStatistics {
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
                evaluation: evaluation, systemAnchors: systemAnchors(), date: date, limits: limits)
            resultCache.insert(report, for: key, window: window)
        }
        return report
    }

    /// Evaluates offline, then — when the evaluation allows fetching and the chain stops at a missing issuer —
    /// fetches that issuer (``IssuerFetch``) and evaluates again, as long as something new comes back; then, unless
    /// the revocation mode is `off`, fetches revocation answers for the chain (``RevocationFetch``) and evaluates
    /// once more with them.
    private func evaluateUncached(_ evaluation: TrustEvaluation, date: Date) -> TrustReport {
        guard evaluation.networkFetchAllowed, let network else { return evaluateOffline(evaluation, date: date) }
        var report = evaluateOffline(evaluation, date: date)
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
                let refused = PathAttempt(
                    path: CandidatePath(certificates: [leaf], endsAtAnchor: false), common: common,
                    perPolicy: policies.map { _ in PathFindings(count: 1) }, notes: [excess])
                return try ReportAssembler(
                    evaluation: evaluation, policies: policies, date: date, backend: backend, fingerprintOwner: fingerprintOwner)
                    .report(refused, tried: 0, alwaysTrusted: false)
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

    private func evaluate(
        _ evaluation: TrustEvaluation, leaf: Certificate, policies: [TrustPolicy], date: Date
    ) throws(BackendError) -> TrustReport {
        // The trust settings decide which certificates they make anchors, under which policy (TrustSettingsIndex).
        let settings = TrustSettingsIndex(evaluation.trustSettings)
        let anchorContext = try anchorContexts.context(
            anchors: evaluation.anchors, alwaysTrust: settings.isEmpty ? [] : settings.anchors(for: policies),
            system: evaluation.anchorsOnly ? nil : { self.systemAnchors() }, backend: backend)
        var judge = PathJudge(
            evaluation: evaluation, policies: policies, date: date, settings: settings, anchorContext: anchorContext,
            backend: backend, limits: limits, libraryAudit: configuration.libraryAudit,
            verifiedSignatures: verifiedSignatures, systemAnchors: systemAnchors)
        let assembler = ReportAssembler(
            evaluation: evaluation, policies: policies, date: date, backend: backend, fingerprintOwner: fingerprintOwner)
        var builder = makeBuilder(
            evaluation, leaf: leaf, settings: settings, anchorContext: anchorContext, date: date)

        var tried = 0
        var best: PathAttempt?
        var truncated: [[Certificate]] = []
        var signatureFailures: [Certificate: Int] = [:]
        while let candidate = builder.next() {
            tried += 1
            let result = try judge.judge(candidate)
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
                try judge.audit(&chosen)
                return try assembler.report(
                    chosen, tried: tried, alwaysTrusted: chosen.failureCount == 0 && trusted.allSatisfy { $0 },
                    policyTrusted: trusted)
            }
            if best.map({ result.rank < $0.rank }) ?? true { best = result }
        }
        if best == nil {
            // No anchored path survived: report the path that got furthest.
            tried += 1
            best = try judge.furthestFailure(
                leaf: leaf, truncated: truncated, signatureFailures: signatureFailures, builder: builder)
        }
        var final = best!
        if builder.limitReached { final.common.record(TrustRules.pathBuildingLimit, at: 0) }
        try judge.audit(&final)
        // A policy that passes on its own reads proceed when the settings trust a certificate of the path for it.
        return try assembler.report(
            final, tried: tried, alwaysTrusted: false,
            policyTrusted: policies.map { settings.grantsProceed(final.path.certificates, under: $0) })
    }

    /// The path builder of one evaluation: its pool (below) and the anchors of its context.
    private func makeBuilder(
        _ evaluation: TrustEvaluation, leaf: Certificate, settings: TrustSettingsIndex, anchorContext: AnchorContext,
        date: Date
    ) -> ChainBuilder {
        var buildLimits = limits
        // maxDepth counts intermediates; the builder's limit counts certificates (leaf and anchor included).
        buildLimits.maxDepth = max(limits.maxDepth, evaluation.maxDepth + 2)
        return ChainBuilder(
            leaf: leaf, pool: Self.pool(of: evaluation, leaf: leaf, settings: settings, anchors: anchorContext.anchorSet),
            anchorSet: anchorContext.anchorSet, anchorIndex: anchorContext.index, date: date, limits: buildLimits,
            poolIsUnique: true)
    }

    /// The pool: presented certificates after the leaf, then --intermediates, then the certificates with trust
    /// settings that are not anchors (as trustd finds issuers in the keychains that hold the settings, so a path
    /// through a distrusted certificate is found and denied); each once, anchors left out (they are found through
    /// the anchor index).
    private static func pool(
        of evaluation: TrustEvaluation, leaf: Certificate, settings: TrustSettingsIndex, anchors: Set<Certificate>
    ) -> [Certificate] {
        var seen = Set<Certificate>(minimumCapacity: evaluation.certificates.count + evaluation.additionalIntermediates.count)
        seen.insert(leaf)
        let settingCertificates = settings.isEmpty ? [] : evaluation.trustSettings.certificates
        return (evaluation.certificates.dropFirst() + evaluation.additionalIntermediates + settingCertificates).filter {
            !anchors.contains($0) && seen.insert($0).inserted
        }
    }
}
