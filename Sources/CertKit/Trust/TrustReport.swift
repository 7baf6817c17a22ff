import Foundation

/// The single error an evaluation reports (what `SecTrustEvaluateWithError` puts in its `CFError`).
/// Two errors are equal when they have the same check on the same certificate (hence the same code), whatever
/// their messages say.
public struct TrustError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The check that was chosen by trustd's priority.
    public var check: TrustCheck
    /// The index in ``TrustReport/chain`` of the certificate it is about (0 = leaf).
    public var certificateIndex: Int
    /// A human message naming the certificate, the rule and the profiles that enforce it, e.g.
    /// `"leaf.example" expired on 2024-01-01 (rule rfc5280.validity, every profile)`.
    public var message: String
    /// The rule that recorded the check (nil only for errors made outside rule evaluation).
    public var rule: TrustRule?

    /// The OSStatus code.
    public var code: TrustErrorCode { check.errorCode }

    /// Creates an error.
    package init(check: TrustCheck, certificateIndex: Int, message: String, rule: TrustRule? = nil) {
        self.check = check
        self.certificateIndex = certificateIndex
        self.message = message
        self.rule = rule
    }

    public var description: String { "\(code.name) (\(code.rawValue)): \(message)" }

    public static func == (lhs: TrustError, rhs: TrustError) -> Bool {
        lhs.check == rhs.check && lhs.certificateIndex == rhs.certificateIndex
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(check)
        hasher.combine(certificateIndex)
    }
}

/// The outcome of one evaluation: the result type, the chain that was built, what failed on each certificate.
public struct TrustReport: Sendable, Hashable {
    /// The aggregated result.
    public var result: TrustResultType
    /// The path used, leaf first (`SecTrustCopyCertificateChain`).
    public var chain: [Certificate]
    /// Failed checks per certificate of ``chain``.
    public var checks: [Set<TrustCheck>]
    /// For each certificate of ``chain``, the rules that recorded each failed check (empty when the failures
    /// were accepted by exceptions).
    public var rules: [[TrustCheck: [TrustRule]]]
    /// The reported error, nil when trusted.
    public var error: TrustError?
    /// The backend that verified the path.
    public var backend: String
    /// The policy checked.
    public var policy: TrustPolicy
    /// The verification time used.
    public var verifyDate: Date
    /// How many candidate paths were tried.
    public var pathsTried: Int
    /// The SHA-256 of each certificate of ``chain`` (its fingerprint), computed by the backend's library before the
    /// report is returned (empty if the library could not compute one). A plain value: comparing or hashing a report
    /// never calls into a library.
    public var fingerprints: [[UInt8]] = []
    /// Library and policy notes, for diagnostics.
    public var notes: [String]
    /// For each certificate of ``chain``, whether revocation was checked, how and until when; empty when the
    /// evaluation asked for no revocation checking (no CRL, no OCSP response, not required, or mode `off`).
    public var revocation: [RevocationStatus] = []
    /// Certificate Transparency for the leaf (an evaluation with a log list, an SSL server policy of the apple or
    /// webpki profile): compliant, not, or not enforced and why, with every SCT looked at; nil when not evaluated.
    public var certificateTransparency: CertificateTransparencyStatus? = nil
    /// The audit mode's `LibraryVerdict` failures in the library's own words (`[index] ...` per certificate, e.g.
    /// `openssl: unsupported certificate purpose (X509_V_ERR 26) [notRequested]`); empty outside the audit mode
    /// and when the library's verdict added nothing.
    public var libraryVerdict: [String] = []
    /// What the evaluation fetched from the network (only when it allowed fetching), in order.
    public var fetches: [NetworkFetchRecord] = []
    /// For each certificate of ``chain``, the URL it was fetched from (authorityInfoAccess caIssuers), nil for one
    /// that was given; empty when nothing was fetched.
    public var fetchedFrom: [String?] = []
    /// The pool certificates that did not decode and were left out of the evaluation, as the evaluation listed
    /// them (``TrustEvaluation/skippedCertificates``); empty when every certificate decoded.
    public var skippedCertificates: [SkippedCertificate] = []
    /// The outcome for each policy of the evaluation, in order, on the same ``chain`` (SecTrust's result details
    /// per policy). ``result`` aggregates them; ``policy`` and ``error`` are those of the policy that failed worst.
    public var policyResults: [PolicyResult]

    /// Creates a report.
    package init(
        result: TrustResultType, chain: [Certificate], checks: [Set<TrustCheck>], error: TrustError?,
        backend: String, policy: TrustPolicy, verifyDate: Date, pathsTried: Int, notes: [String] = [],
        policyResults: [PolicyResult]? = nil,
        rules: [[TrustCheck: [TrustRule]]] = []
    ) {
        self.policyResults = policyResults
            ?? [PolicyResult(policy: policy, result: result, checks: checks, error: error)]
        self.result = result
        self.chain = chain
        self.checks = checks
        self.rules = rules
        self.error = error
        self.backend = backend
        self.policy = policy
        self.verifyDate = verifyDate
        self.pathsTried = pathsTried
        self.notes = notes
    }

    /// `kSecTrustRevocationChecked`: true when revocation was asked for and every certificate of ``chain`` it
    /// applies to has a valid answer.
    public var revocationChecked: Bool {
        let applicable = revocation.filter { $0.outcome != .notApplicable }
        return !applicable.isEmpty && applicable.allSatisfy(\.isChecked)
    }

    /// `kSecTrustRevocationValidUntilDate`: when ``revocationChecked``, the earliest instant one of the answers used
    /// stops holding (nil when none says, or revocation was not checked).
    public var revocationValidUntil: Date? {
        guard revocationChecked else { return nil }
        return revocation.compactMap(\.validUntil).min()
    }

    /// True for `proceed` and `unspecified`.
    public var isTrusted: Bool { result.isTrusted }

    /// The rules that failed on certificate `index`, each once, in check order.
    public func failedRules(at index: Int) -> [TrustRule] {
        guard rules.indices.contains(index) else { return [] }
        var seen = Set<TrustRule>()
        return rules[index].sorted { $0.key < $1.key }.flatMap(\.value).filter { seen.insert($0).inserted }
    }

    /// Every failed check, over all certificates.
    public var allFailures: Set<TrustCheck> { checks.reduce(into: []) { $0.formUnion($1) } }

    /// What `SecTrustCopyExceptions` returns: exceptions that make a later evaluation of the same leaf `proceed`
    /// despite exactly these recoverable failures. Nil unless the result is `recoverableTrustFailure`.
    public var exceptions: TrustExceptions? {
        guard result == .recoverableTrustFailure, let leafSHA256 = fingerprints.first else { return nil }
        return TrustExceptions(leafSHA256: leafSHA256, checks: allFailures)
    }
}
