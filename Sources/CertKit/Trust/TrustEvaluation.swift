import Foundation

/// What a `SecTrust` holds: certificates, policies, anchors, date, settings, exceptions, CRLs, OCSP responses,
/// the revocation policy, pins.
/// Changing any input resets ``result`` to ``TrustResultType/invalid``, as SecTrust does.
public struct TrustEvaluation: Sendable {
    /// The certificates: the leaf first, then an unordered pool of intermediates.
    public var certificates: [Certificate] { didSet { report = nil } }
    /// The policies to check.
    public var policies: [TrustPolicy] { didSet { report = nil } }
    /// Anchor certificates (`SecTrustSetAnchorCertificates`). Setting anchors makes them the only ones
    /// (``anchorsOnly`` becomes true); setting none brings back the system store, as SecTrust does.
    public var anchors: [Certificate] {
        didSet {
            report = nil
            anchorsOnly = !anchors.isEmpty
        }
    }
    /// When true only ``anchors`` (and always-trust certificates) are trusted; when false the system store
    /// (``SystemTrustStore``) is added (`SecTrustSetAnchorCertificatesOnly`). Defaults to true exactly when
    /// anchors are given: an evaluation without anchors uses the system roots, as a `SecTrust` does.
    public var anchorsOnly: Bool { didSet { report = nil } }
    /// The verification time; nil means now.
    public var verifyDate: Date? { didSet { report = nil } }
    /// Per-certificate trust settings.
    public var trustSettings: TrustSettings { didSet { report = nil } }
    /// Exceptions from an earlier evaluation (`SecTrustSetExceptions`).
    public var exceptions: TrustExceptions? { didSet { report = nil } }
    /// CRLs to check revocation against.
    public var crls: [CertificateRevocationList] { didSet { report = nil } }
    /// OCSP responses to check revocation against (`SecTrustSetOCSPResponse`: a stapled response, or one from a
    /// file); each is validated by the core before use.
    public var ocspResponses: [OCSPResponse] { didSet { report = nil } }
    /// Which revocation sources are used (default ``RevocationMode/any``: whatever is given).
    public var revocationMode: RevocationMode { didSet { report = nil } }
    /// `SecTrustSetNetworkFetchAllowed`: when true (and the evaluator has ``NetworkAccess``), a certificate whose
    /// issuer is missing has its authorityInfoAccess caIssuers `http://` URL fetched, and what comes back joins the
    /// pool (never the anchors). Off by default: evaluation stays offline and deterministic.
    public var networkFetchAllowed: Bool { didSet { report = nil } }
    /// Apple's `kSecRevocationRequirePositiveResponse`: every certificate below the anchor needs a valid answer
    /// that it is not revoked; without one it is `RevocationResponseRequired`.
    public var requireRevocation: Bool { didSet { report = nil } }
    /// SPKI SHA-256 pins: when not empty, the leaf or some CA in the path must match one.
    public var pins: [SPKIPin] { didSet { report = nil } }
    /// Additional intermediates (`--intermediates`), part of the pool.
    public var additionalIntermediates: [Certificate] { didSet { report = nil } }
    /// The maximum number of certificates in a path, anchor included.
    public var maxDepth: Int { didSet { report = nil } }
    /// Pool certificates that did not decode and were left out (``SkippedCertificate``): they are copied to the
    /// report (``TrustReport/skippedCertificates``) and count toward ``Limits/maxPoolCertificates``.
    public var skippedCertificates: [SkippedCertificate] = [] { didSet { report = nil } }

    /// OCSP responses and CRLs the evaluator fetched for this evaluation (network fetching), reported with the
    /// sources `ocsp` and `crlFetched`.
    var fetchedOCSPResponses: [OCSPResponse] = []
    var fetchedCRLs: [CertificateRevocationList] = []

    /// The last report, nil when not evaluated since the last change.
    public private(set) var report: TrustReport?

    /// The result of the last evaluation, or ``TrustResultType/invalid``.
    public var result: TrustResultType { report?.result ?? .invalid }

    /// The default maximum path length.
    public static let defaultMaxDepth = 10

    /// Creates an evaluation of `certificates` (leaf first) under `policies`.
    public init(
        certificates: [Certificate], policies: [TrustPolicy] = [.basicX509], anchors: [Certificate] = [],
        anchorsOnly: Bool? = nil, verifyDate: Date? = nil, trustSettings: TrustSettings = .none,
        exceptions: TrustExceptions? = nil, crls: [CertificateRevocationList] = [], pins: [SPKIPin] = [],
        additionalIntermediates: [Certificate] = [], maxDepth: Int = TrustEvaluation.defaultMaxDepth,
        ocspResponses: [OCSPResponse] = [], revocationMode: RevocationMode = .any, requireRevocation: Bool = false,
        networkFetchAllowed: Bool = false
    ) {
        self.networkFetchAllowed = networkFetchAllowed
        self.ocspResponses = ocspResponses
        self.revocationMode = revocationMode
        self.requireRevocation = requireRevocation
        self.certificates = certificates
        self.policies = policies
        self.anchors = anchors
        self.anchorsOnly = anchorsOnly ?? !anchors.isEmpty
        self.verifyDate = verifyDate
        self.trustSettings = trustSettings
        self.exceptions = exceptions
        self.crls = crls
        self.pins = pins
        self.additionalIntermediates = additionalIntermediates
        self.maxDepth = maxDepth
    }

    /// Evaluates with `evaluator`, stores and returns the report (its result must be looked at: it is the verdict).
    public mutating func evaluate(with evaluator: TrustEvaluator) -> TrustReport {
        let report = evaluator.evaluate(self)
        self.report = report
        return report
    }

    /// Evaluates with `evaluator` like `SecTrustEvaluateWithError`: returns the report when the chain is trusted
    /// (`unspecified` or `proceed`), throws its ``TrustError`` otherwise.
    @discardableResult
    public mutating func evaluateWithError(with evaluator: TrustEvaluator) throws(TrustError) -> TrustReport {
        let report = evaluate(with: evaluator)
        if report.isTrusted { return report }
        throw report.error ?? TrustError(check: .backendError, certificateIndex: 0, message: "evaluation failed")
    }
}
