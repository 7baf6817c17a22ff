import Foundation

/// What a `SecTrust` holds: certificates, policies, anchors, date, settings, exceptions, CRLs, OCSP responses,
/// the revocation policy, pins.
/// Changing any input resets ``result`` to ``TrustResultType/invalid``, as SecTrust does.
public struct TrustEvaluation: Sendable {
    /// Every input of the verdict, as one value (what the result cache keys on). Changing it resets ``report``.
    package var inputs: EvaluationInputs { didSet { report = nil } }

    /// The certificates: the leaf first, then an unordered pool of intermediates.
    public var certificates: [Certificate] {
        get { inputs.certificates }
        set { inputs.certificates = newValue }
    }
    /// The policies to check.
    public var policies: [TrustPolicy] {
        get { inputs.policies }
        set { inputs.policies = newValue }
    }
    /// Anchor certificates (`SecTrustSetAnchorCertificates`). Setting anchors makes them the only ones
    /// (``anchorsOnly`` becomes true); setting none brings back the system store, as SecTrust does.
    public var anchors: [Certificate] {
        get { inputs.anchors }
        set {
            inputs.anchors = newValue
            inputs.anchorsOnly = !newValue.isEmpty
        }
    }
    /// When true only ``anchors`` (and always-trust certificates) are trusted; when false the system store
    /// (``SystemTrustStore``) is added (`SecTrustSetAnchorCertificatesOnly`). Defaults to true exactly when
    /// anchors are given: an evaluation without anchors uses the system roots, as a `SecTrust` does.
    public var anchorsOnly: Bool {
        get { inputs.anchorsOnly }
        set { inputs.anchorsOnly = newValue }
    }
    /// The verification time; nil means now.
    public var verifyDate: Date? {
        get { inputs.verifyDate }
        set { inputs.verifyDate = newValue }
    }
    /// Per-certificate trust settings.
    public var trustSettings: TrustSettings {
        get { inputs.trustSettings }
        set { inputs.trustSettings = newValue }
    }
    /// Exceptions from an earlier evaluation (`SecTrustSetExceptions`).
    public var exceptions: TrustExceptions? {
        get { inputs.exceptions }
        set { inputs.exceptions = newValue }
    }
    /// CRLs to check revocation against.
    public var crls: [CertificateRevocationList] {
        get { inputs.crls }
        set { inputs.crls = newValue }
    }
    /// OCSP responses to check revocation against (`SecTrustSetOCSPResponse`: a stapled response, or one from a
    /// file); each is validated by the core before use.
    public var ocspResponses: [OCSPResponse] {
        get { inputs.ocspResponses }
        set { inputs.ocspResponses = newValue }
    }
    /// Which revocation sources are used (default ``RevocationMode/any``: whatever is given).
    public var revocationMode: RevocationMode {
        get { inputs.revocationMode }
        set { inputs.revocationMode = newValue }
    }
    /// `SecTrustSetNetworkFetchAllowed`: when true (and the evaluator has ``NetworkAccess``), a certificate whose
    /// issuer is missing has its authorityInfoAccess caIssuers `http://` URL fetched, and what comes back joins the
    /// pool (never the anchors). Off by default: evaluation stays offline and deterministic.
    public var networkFetchAllowed: Bool {
        get { inputs.networkFetchAllowed }
        set { inputs.networkFetchAllowed = newValue }
    }
    /// Apple's `kSecRevocationRequirePositiveResponse`: every certificate below the anchor needs a valid answer
    /// that it is not revoked; without one it is `RevocationResponseRequired`.
    public var requireRevocation: Bool {
        get { inputs.requireRevocation }
        set { inputs.requireRevocation = newValue }
    }
    /// SPKI SHA-256 pins: when not empty, the leaf or some CA in the path must match one.
    public var pins: [SPKIPin] {
        get { inputs.pins }
        set { inputs.pins = newValue }
    }
    /// Additional intermediates (`--intermediates`), part of the pool.
    public var additionalIntermediates: [Certificate] {
        get { inputs.additionalIntermediates }
        set { inputs.additionalIntermediates = newValue }
    }
    /// The maximum number of intermediates in a path (the leaf and the anchor are not counted).
    public var maxDepth: Int {
        get { inputs.maxDepth }
        set { inputs.maxDepth = newValue }
    }
    /// Pool certificates that did not decode and were left out (``SkippedCertificate``): they are copied to the
    /// report (``TrustReport/skippedCertificates``) and count toward ``Limits/maxPoolCertificates``.
    public var skippedCertificates: [SkippedCertificate] {
        get { inputs.skippedCertificates }
        set { inputs.skippedCertificates = newValue }
    }

    /// The Certificate Transparency log list (Google's or Apple's v3 JSON): with one, the apple and webpki
    /// profiles hold a TLS server leaf that chains to a system root to their CT policy (Docs/Profiles.md); nil
    /// (the default): CT is not evaluated.
    public var certificateTransparencyLogList: CTLogList? {
        get { inputs.certificateTransparencyLogList }
        set { inputs.certificateTransparencyLogList = newValue }
    }
    /// The SignedCertificateTimestampLists the TLS server sent in its signed_certificate_timestamp extension,
    /// as sent (TLS-encoded); SCTs in OCSP answers are read from ``ocspResponses``.
    public var tlsSignedCertificateTimestamps: [[UInt8]] {
        get { inputs.tlsSignedCertificateTimestamps }
        set { inputs.tlsSignedCertificateTimestamps = newValue }
    }

    /// OCSP responses and CRLs the evaluator fetched for this evaluation (network fetching), reported with the
    /// sources `ocsp` and `crlFetched`.
    var fetchedOCSPResponses: [OCSPResponse] {
        get { inputs.fetchedOCSPResponses }
        set { inputs.fetchedOCSPResponses = newValue }
    }
    var fetchedCRLs: [CertificateRevocationList] {
        get { inputs.fetchedCRLs }
        set { inputs.fetchedCRLs = newValue }
    }

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
        inputs = EvaluationInputs(
            certificates: certificates, policies: policies, anchors: anchors, anchorsOnly: anchorsOnly,
            verifyDate: verifyDate, trustSettings: trustSettings, exceptions: exceptions, crls: crls,
            ocspResponses: ocspResponses, revocationMode: revocationMode, networkFetchAllowed: networkFetchAllowed,
            requireRevocation: requireRevocation, pins: pins, additionalIntermediates: additionalIntermediates,
            maxDepth: maxDepth)
    }

    /// An evaluation of `inputs`, not evaluated yet.
    package init(_ inputs: EvaluationInputs) {
        self.inputs = inputs
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
