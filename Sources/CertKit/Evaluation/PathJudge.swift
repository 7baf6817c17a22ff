import Foundation

/// Judges the candidate paths of one evaluation as the core does: signatures (verified by the backend), revocation,
/// every policy (``CorePolicy``), then what the trust settings allow. The audit mode's library verdict runs only on
/// the path the core chose (``audit(_:)``).
struct PathJudge {
    let evaluation: TrustEvaluation
    let policies: [TrustPolicy]
    let date: Date
    let settings: TrustSettingsIndex
    let anchorContext: AnchorContext
    let backend: any TrustBackend
    let limits: Limits
    let libraryAudit: Bool
    private let systemAnchors: @Sendable () -> [Certificate]
    private var signatures: PathSignatureCheck
    private var revocation: RevocationCheck
    private var transparency: CertificateTransparencyCheck

    init(
        evaluation: TrustEvaluation, policies: [TrustPolicy], date: Date, settings: TrustSettingsIndex,
        anchorContext: AnchorContext, backend: any TrustBackend, limits: Limits, libraryAudit: Bool,
        verifiedSignatures: VerifiedSignatureCache, systemAnchors: @escaping @Sendable () -> [Certificate]
    ) {
        self.evaluation = evaluation
        self.policies = policies
        self.date = date
        self.settings = settings
        self.anchorContext = anchorContext
        self.backend = backend
        self.limits = limits
        self.libraryAudit = libraryAudit
        self.systemAnchors = systemAnchors
        transparency = CertificateTransparencyCheck(evaluation: evaluation, backend: backend, date: date, limits: limits)
        signatures = PathSignatureCheck(backend: backend, verified: verifiedSignatures, anchors: anchorContext.store)
        revocation = RevocationCheck(
            backend: backend, requireCRLNumber: policies.contains { TrustRules.crlNumber.isEnforced(by: $0.profile) })
    }

    /// A path that ends at a certificate only the settings make an anchor is anchored for the policies whose
    /// settings say so, not for the others (their constraints name another policy or host).
    func isAnchored(_ path: CandidatePath, under policy: TrustPolicy) -> Bool {
        guard path.endsAtAnchor, let last = path.certificates.last else { return false }
        guard anchorContext.alwaysTrusted.contains(last), !settings.isAnchor(last, under: policy) else { return true }
        return evaluation.anchors.contains(last) || (!evaluation.anchorsOnly && systemAnchors().contains(last))
    }

    /// Where the anchor of `path` (anchored under `policy`) comes from: an anchor the app supplied, else a certificate
    /// the trust settings make an anchor under `policy`, else a system root; nil when the path is not anchored. A
    /// certificate that is more than one is taken in that order: the app's own choice outranks the user's settings,
    /// which outrank the system's (trustd's user trust settings exempt a system root they trust).
    func anchorOrigin(of path: CandidatePath, under policy: TrustPolicy) -> AnchorOrigin? {
        guard path.endsAtAnchor, let last = path.certificates.last else { return nil }
        if anchorContext.appSupplied.contains(last) { return .appSupplied }
        if anchorContext.alwaysTrusted.contains(last), settings.isAnchor(last, under: policy) { return .userTrustSettings }
        return .system
    }

    /// The core's judgement of `path`: signatures, revocation, then every policy; the failures the trust settings
    /// allow are dropped.
    mutating func judge(_ path: CandidatePath) throws(BackendError) -> PathAttempt {
        if let excess = EvaluationBudget.nameConstraintExcess(of: path.certificates, limits: limits) {
            // Neither the backend nor the policy sees a path whose checks would exceed the budget.
            var common = PathFindings(count: path.certificates.count)
            common.record(.resourceLimit, at: 0)
            let none = PathFindings(count: path.certificates.count)
            return PathAttempt(path: path, common: common, perPolicy: policies.map { _ in none }, notes: [excess])
        }
        var findings = PathFindings(count: path.certificates.count)
        try signatures.check(path, into: &findings)
        let revocationOutcome = try revocation.check(path, evaluation: evaluation, at: date, into: &findings)
        var perPolicy = try policyFindings(on: path)
        let transparencyStatus = try certificateTransparency(on: path, into: &perPolicy)
        var result = PathAttempt(
            path: path, common: findings, perPolicy: perPolicy, notes: findings.notes + perPolicy.flatMap(\.notes))
        result.transparency = transparencyStatus
        if libraryAudit {
            var everything = findings
            for policyFindings in perPolicy { everything.merge(policyFindings) }
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

    /// Each policy's findings on `path` (``CorePolicy``).
    private func policyFindings(on path: CandidatePath) throws(BackendError) -> [PathFindings] {
        // Pins are compared with SPKI digests from the backend's library (no digest is written by hand).
        let spkiDigests = evaluation.pins.isEmpty ? [] : try path.certificates.map { certificate throws(BackendError) in
            try backend.digest(.sha256, of: certificate.publicKey.derEncoded)
        }
        return policies.map { policy in
            let policyPath = CandidatePath(certificates: path.certificates, endsAtAnchor: isAnchored(path, under: policy))
            let context = PathContext(
                path: policyPath, policy: policy, date: date, pins: evaluation.pins,
                trustSettings: evaluation.trustSettings, maxDepth: evaluation.maxDepth,
                anchorOrigin: anchorOrigin(of: policyPath, under: policy),
                spkiDigests: spkiDigests, limits: limits, trustSettingsIndex: settings)
            return CorePolicy.findings(for: context)
        }
    }

    /// Certificate Transparency under each policy that concerns it (``CertificateTransparencyCheck``), recorded
    /// into that policy's findings; the status under the first such policy. Only a path without a signature
    /// failure is worth it (one with is discarded).
    private mutating func certificateTransparency(
        on path: CandidatePath, into perPolicy: inout [PathFindings]
    ) throws(BackendError) -> CertificateTransparencyStatus? {
        var first: CertificateTransparencyStatus?
        for (index, policy) in policies.enumerated() where transparency.concerns(policy) {
            let anchoredPath = CandidatePath(certificates: path.certificates, endsAtAnchor: isAnchored(path, under: policy))
            // Only a system root's chain is held to CT: not an anchor the app supplied or the trust settings make.
            let systemAnchor = anchorOrigin(of: anchoredPath, under: policy) == .system
            let status = try transparency.check(
                anchoredPath, policy: policy, endsAtSystemAnchor: systemAnchor, into: &perPolicy[index])
            if first == nil { first = status }
        }
        return first
    }

    /// The audit mode: the library's own verifier on the path the core chose; what no core rule and no known
    /// deviation explains is a LibraryVerdict failure of its own (``LibraryVerdictInterpretation``).
    func audit(_ chosen: inout PathAttempt) throws(BackendError) {
        // A path with a key the core refuses is never shown to the library (its verifier would spend on that
        // key the work the core bounds; the path already fails with a fatal WeakKeySize).
        guard libraryAudit, !chosen.path.certificates.contains(where: { $0.publicKey.encodingProblem != nil })
        else { return }
        var weighed = chosen.coreFindings ?? chosen.findings
        weighed.merge(chosen.common)
        let before = weighed
        let facts = try backend.libraryVerdict(
            on: chosen.path, anchors: anchorContext.store, at: date, crls: chosen.usableCRLs)
            + LibraryVerdictInterpretation.digestFacts(of: chosen.path.certificates, backend: backend)
        LibraryVerdictInterpretation.weigh(facts, on: chosen.path.certificates, at: date, from: backend.name, into: &weighed)
        let added = weighed.additions(since: before)
        chosen.common.merge(added)
        chosen.notes += added.notes
    }

    /// When no anchored path survived: the judgement of the path that got furthest (a path cut at a link whose
    /// signature failed, or the builder's best dead end), with what stopped it.
    mutating func furthestFailure(
        leaf: Certificate, truncated: [[Certificate]], signatureFailures: [Certificate: Int], builder: ChainBuilder
    ) throws(BackendError) -> PathAttempt {
        var incomplete = truncated
        if let deadEnd = builder.bestDeadEnd { incomplete.append(deadEnd) }
        if incomplete.isEmpty { incomplete = [[leaf]] }
        let furthest = incomplete.max { $0.count < $1.count } ?? [leaf]
        var result = try judge(CandidatePath(certificates: furthest, endsAtAnchor: false))
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
        return result
    }

    /// True when `evaluation` asks for revocation checking: a source is given or an answer required, in a mode
    /// other than `off`.
    private static func asksForRevocation(_ evaluation: TrustEvaluation) -> Bool {
        evaluation.revocationMode != .off
            && (!evaluation.crls.isEmpty || !evaluation.ocspResponses.isEmpty || evaluation.requireRevocation
                || !evaluation.fetchedCRLs.isEmpty || !evaluation.fetchedOCSPResponses.isEmpty)
    }
}
