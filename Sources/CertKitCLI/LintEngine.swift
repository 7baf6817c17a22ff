import CertKit
import CertKitBackends
import Foundation

/// Runs every requested ``LintTarget`` on one evaluation and gathers the issuance findings: the work of
/// `certkit lint`, shared by `lint`, `lint --batch` and `connect --lint`.
struct LintEngine: Sendable {
    let targets: [LintTarget]
    /// The backend of the core targets.
    let coreEvaluator: TrustEvaluator
    /// For each library target, the backend that runs its library (the recorder is made per evaluation).
    let libraryBackends: [String: any TrustBackend]
    let network: NetworkAccess?

    /// An engine for `targets`; the core targets use `coreBackend`.
    /// - Throws: a usage error when a library target names a backend the registry lacks.
    init(targets: [LintTarget], coreBackend: String, registry: BackendRegistry, network: NetworkAccess?, command: String)
        throws(CLIError)
    {
        self.targets = targets
        self.network = network
        guard let core = registry.backend(named: coreBackend) else {
            throw .usage("unknown backend '\(coreBackend)' (choose \(registry.names.joined(separator: ", ")))", command: command)
        }
        coreEvaluator = TrustEvaluator(
            backend: core, configuration: TrustEvaluator.Configuration(libraryAudit: false), network: network)
        var libraries: [String: any TrustBackend] = [:]
        for target in targets {
            guard case .library(let name) = target.mode else { continue }
            guard let backend = registry.backend(named: name) else {
                throw .usage("target \(target.name) needs the \(name) backend, which this build lacks", command: command)
            }
            libraries[name] = backend
        }
        libraryBackends = libraries
    }

    /// The host or IP an SSL policy checks, as text.
    static func peerName(of policy: TrustPolicy) -> PeerName? {
        if case .ssl(_, let name, _) = policy { return name }
        return nil
    }

    /// Lints `evaluation` (its policy names the peer; each target replaces the profile).
    func lint(_ evaluation: TrustEvaluation, notes: ReportNotes) -> LintResult {
        let peer = evaluation.policies.first.flatMap(Self.peerName(of:))
        var verdicts: [LintVerdict] = []
        var date = evaluation.verifyDate ?? Date()
        for target in targets {
            var targeted = evaluation
            targeted.policies = [.ssl(server: true, name: peer, profile: target.profile)]
            let verdict: LintVerdict
            switch target.mode {
            case .core:
                let report = coreEvaluator.evaluate(targeted)
                date = report.verifyDate
                var core = Self.coreVerdict(target, report: report)
                core.otherPaths = otherPaths(targeted, report: report, target: target)
                verdict = core
            case .library(let name):
                let recorder = LintLibraryRecorder(libraryBackends[name]!)
                let report = TrustEvaluator(
                    backend: recorder, configuration: TrustEvaluator.Configuration(libraryAudit: true), network: network
                ).evaluate(targeted)
                date = report.verifyDate
                verdict = Self.libraryVerdict(target, report: report, facts: recorder.facts)
            }
            verdicts.append(verdict)
        }
        let input = LintInput(presented: evaluation.certificates, built: nil, date: date, peerName: peer?.description)
        var verdictsWithSets = verdicts
        for index in verdictsWithSets.indices {
            let target = verdictsWithSets[index].target
            guard !target.ruleSets.isEmpty else { continue }
            var targetInput = input
            targetInput.built = verdictsWithSets[index].chain
            let extra = target.ruleSets.flatMap { $0.findings(targetInput) }
            verdictsWithSets[index].findings += extra
            if !extra.isEmpty, verdictsWithSets[index].trusted {
                // A rule set of the target refuses what the core accepted.
                verdictsWithSets[index].trusted = false
                verdictsWithSets[index].result = .recoverableTrustFailure
            }
        }
        return LintResult(
            presented: evaluation.certificates, verdicts: verdictsWithSets,
            issuance: LintIssuanceRules.ruleSet.findings(input), date: date, peerName: peer?.description, notes: notes,
            skipped: evaluation.skippedCertificates)
    }

    /// True when the report's chain ends at an anchor: its last certificate fails neither MissingIntermediate nor
    /// AnchorTrusted.
    static func isAnchored(_ report: TrustReport) -> Bool {
        report.checks.last.map { $0.isDisjoint(with: [.missingIntermediate, .anchorTrusted]) } ?? false
    }

    /// The most other paths looked for per target.
    static let maximumOtherPaths = 4

    /// Other candidate paths: the report holds one path (the first that passes, else the best-ranked failure), so
    /// each certificate between the leaf and the anchor of that path is left out of the pool in turn and the chain
    /// judged again; a different path that comes back is one the core's search could have reported too.
    func otherPaths(_ evaluation: TrustEvaluation, report: TrustReport, target: LintTarget) -> [LintPath] {
        let chain = report.chain
        guard chain.count > 1 else { return [] }
        let anchored = Self.isAnchored(report)
        let candidates = chain[1..<(anchored ? chain.count - 1 : chain.count)]
        var seen: [[Certificate]] = [chain]
        var paths: [LintPath] = []
        for excluded in candidates {
            var without = evaluation
            without.certificates = [evaluation.certificates[0]] + evaluation.certificates.dropFirst().filter { $0 != excluded }
            without.additionalIntermediates.removeAll { $0 == excluded }
            guard without.certificates.count + without.additionalIntermediates.count
                < evaluation.certificates.count + evaluation.additionalIntermediates.count
            else { continue }  // not from the pool (an anchor, or a certificate the trust settings hold)
            let other = coreEvaluator.evaluate(without)
            // Only a complete path (one that ends at an anchor) is another candidate; a path cut short by the
            // certificate left out is not.
            guard Self.isAnchored(other), !seen.contains(other.chain) else { continue }
            seen.append(other.chain)
            let verdict = Self.coreVerdict(target, report: other)
            paths.append(LintPath(chain: other.chain, trusted: verdict.trusted, findings: verdict.findings))
            if paths.count == Self.maximumOtherPaths { break }
        }
        return paths
    }

    /// A core target's verdict: every rule the report records on every certificate of the chain it built.
    static func coreVerdict(_ target: LintTarget, report: TrustReport) -> LintVerdict {
        var findings: [LintFinding] = []
        for (index, certificate) in report.chain.enumerated() where index < report.rules.count {
            for check in report.rules[index].keys.sorted() {
                for rule in report.rules[index][check] ?? [] {
                    var detail = detail(in: report.notes, index: index, check: check, rule: rule)
                        ?? (report.error.map { $0.check == check && $0.certificateIndex == index } == true
                            ? report.error.map { withoutCitation($0.message, rule: rule) } : nil)
                    if rule == TrustRules.missingIntermediate, let note = issuerURLNote(certificate) {
                        detail = detail.map { "\($0); \(note)" } ?? note
                    }
                    findings.append(LintFinding(
                        rule: rule.id, certificateIndex: index, subject: certificate.subject.description,
                        check: check.name, detail: detail))
                }
            }
        }
        return LintVerdict(
            target: target, backend: report.backend, trusted: report.isTrusted, result: report.result,
            chain: report.chain, findings: findings, pathsTried: report.pathsTried)
    }

    /// A message without its closing `(rule … (profiles …))`: the finding names its rule already.
    static func withoutCitation(_ message: String, rule: TrustRule) -> String {
        let suffix = " (\(rule.citation))"
        guard let range = message.range(of: suffix) else { return message }
        return String(message[..<range.lowerBound]) + String(message[range.upperBound...])
    }

    /// Where a certificate whose issuer is missing says its issuer is (authorityInfoAccess caIssuers), if it does.
    static func issuerURLNote(_ certificate: Certificate) -> String? {
        let urls = certificate.extensions.authorityInfoAccess.compactMap { access -> String? in
            guard access.method == "1.3.6.1.5.5.7.48.2", case .uri(let url) = access.location else { return nil }
            return url
        }
        guard let first = urls.first else { return nil }
        return "the certificate names its issuer at \(first) (--network fetches it)"
    }

    /// The first note a rule left on certificate `index` (`[0] SSLHostname (certkit.peer-name): …`), without its
    /// prefix.
    static func detail(in notes: [String], index: Int, check: TrustCheck, rule: TrustRule) -> String? {
        let prefix = "[\(index)] \(check.name) (\(rule.id)): "
        return notes.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// A library target's verdict: trusted when its library's verifier refused nothing on the path the core chose.
    static func libraryVerdict(_ target: LintTarget, report: TrustReport, facts: [LibraryFact]?) -> LintVerdict {
        var findings: [LintFinding] = []
        let chain = report.chain
        func subject(_ index: Int?) -> String {
            guard let index, chain.indices.contains(index) else { return "" }
            return chain[index].subject.description
        }
        if let facts {
            for fact in facts where LintLibraryRecorder.isRefusal(fact) {
                let index = fact.index.map { min(max($0, 0), max(chain.count - 1, 0)) }
                findings.append(LintFinding(
                    rule: "library.\(fact.status.rawValue)", certificateIndex: index, subject: subject(index),
                    detail: fact.words.trimmingCharacters(in: .whitespaces)))
            }
        } else if report.result == .otherError {
            findings.append(LintFinding(
                rule: TrustRules.backendError.id, certificateIndex: 0, subject: subject(0), check: TrustCheck.backendError.name,
                detail: report.error?.message))
        } else {
            // Not shown to the library: a key the core refuses (the audit mode never hands such a path over).
            let refused = chain.firstIndex { $0.publicKey.encodingProblem != nil }
            findings.append(LintFinding(
                rule: "library.notShown", certificateIndex: refused ?? 0, subject: subject(refused ?? 0),
                detail: refused.flatMap { chain[$0].publicKey.encodingProblem }
                    ?? "the library's verifier was not run on this path"))
        }
        // GnuTLS is asked only about a path that ends at an anchor: when certkit found none, its verifier had
        // nothing to accept, and the column says so (OpenSSL is asked anyway and says it in its own words).
        if findings.isEmpty, !isAnchored(report) {
            let last = chain.isEmpty ? nil : chain.count - 1
            findings.append(LintFinding(
                rule: "library.\(LibraryFact.Status.noIssuer.rawValue)", certificateIndex: last, subject: subject(last),
                detail: "no path to an anchor was found, so the library was given none to verify"))
        }
        let trusted = findings.isEmpty
        return LintVerdict(
            target: target, backend: report.backend, trusted: trusted,
            result: trusted ? .unspecified : .recoverableTrustFailure, chain: chain, findings: findings,
            pathsTried: report.pathsTried)
    }
}
