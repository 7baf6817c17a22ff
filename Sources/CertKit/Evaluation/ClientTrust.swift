import Foundation

/// The client-trust decision a TLS server makes when a client presents a certificate: the counterpart of
/// ``ServerTrust``, and of a server's `NSURLAuthenticationMethodClientCertificate` check on Apple platforms
/// (SecTrust with `SecPolicyCreateSSL(false, nil)`).
///
/// Let the TLS library request a client certificate *without* deciding trust (OpenSSL: `SSL_VERIFY_PEER` with a
/// verification callback that accepts, then `SSL_get0_verified_chain`/`SSL_get_peer_cert_chain`; GnuTLS:
/// `gnutls_certificate_server_set_request(GNUTLS_CERT_REQUIRE)` with a verification function
/// (`gnutls_session_set_verify_function`) that reads `gnutls_certificate_get_peers`), pass the
/// presented chain to ``evaluate(presentedDER:)`` and serve the client only when the report is trusted. The
/// decision is certkit's: chain building to ``anchors``, the SSL client policy (clientAuth EKU, the profile's
/// rules), trust settings, CRLs, pins and, when ``expectedIdentities`` is not empty, at least one of those names
/// in the certificate. The `ClientTrustServer` sample (in `Samples/`) does exactly this with OpenSSL or GnuTLS.
///
/// ```swift
/// let trust = ClientTrust(
///     evaluator: TrustEvaluator(backend: OpenSSLBackend()), anchors: clientRoots,
///     expectedIdentities: [.email("alice@example.com")])
/// let report = trust.evaluate(presentedDER: chainFromTheHandshake)
/// guard report.isTrusted else { /* send an alert and close */ }
/// ```
///
/// Revocation beyond ``crls`` works as in ``ServerTrust``: a client that staples an OCSP response (TLS 1.3
/// status_request in the CertificateRequest) has it passed to ``evaluate(presentedDER:stapledOCSPResponse:)``;
/// ``requireRevocation``, ``networkFetchAllowed`` (with an evaluator created with ``NetworkAccess``) and
/// ``revocationMode`` are the `SecTrust` settings of the same names.
public struct ClientTrust: Sendable {
    /// The inputs every evaluation of this decision shares (the presented chain and the stapled answer are filled
    /// in per call).
    package var inputs: EvaluationInputs
    /// The certificates trusted as anchors for client certificates (usually the organisation's client CA).
    public var anchors: [Certificate] {
        get { inputs.anchors }
        set { inputs.anchors = newValue }
    }
    /// When true (the default) only ``anchors`` are trusted; when false the system bundle is trusted too.
    public var anchorsOnly: Bool {
        get { inputs.anchorsOnly }
        set { inputs.anchorsOnly = newValue }
    }
    /// Extra intermediates for clients that send only their leaf.
    public var intermediates: [Certificate] {
        get { inputs.additionalIntermediates }
        set { inputs.additionalIntermediates = newValue }
    }
    /// The rule set: `apple` (the default), `rfc5280` or `webpki`.
    public var profile: TrustProfile
    /// Names of which the client certificate must carry at least one: `.email` (rfc822Name SANs or the subject's
    /// emailAddress), `.dnsName` (dNSName SANs), `.ipAddress` (iPAddress SANs). Empty: any client of the anchors.
    public var expectedIdentities: [GeneralName]
    /// Per-certificate trust settings (always-trust, distrust), as `SecTrustSettings`.
    public var trustSettings: TrustSettings {
        get { inputs.trustSettings }
        set { inputs.trustSettings = newValue }
    }
    /// CRLs to check revocation against.
    public var crls: [CertificateRevocationList] {
        get { inputs.crls }
        set { inputs.crls = newValue }
    }
    /// SPKI SHA-256 pins: when not empty, the leaf or a CA of the built chain must match one.
    public var pins: [SPKIPin] {
        get { inputs.pins }
        set { inputs.pins = newValue }
    }
    /// The verification time; nil means now.
    public var verifyDate: Date? {
        get { inputs.verifyDate }
        set { inputs.verifyDate = newValue }
    }
    /// Which revocation sources are used: ``RevocationMode/any`` (the default) uses whatever is given or fetched.
    public var revocationMode: RevocationMode {
        get { inputs.revocationMode }
        set { inputs.revocationMode = newValue }
    }
    /// Apple's `kSecRevocationRequirePositiveResponse`: a chain whose certificates below the anchor lack a valid
    /// answer that they are not revoked fails with `RevocationResponseRequired`. False by default.
    public var requireRevocation: Bool {
        get { inputs.requireRevocation }
        set { inputs.requireRevocation = newValue }
    }
    /// `SecTrustSetNetworkFetchAllowed`: when true and the evaluator was created with ``NetworkAccess``, missing
    /// intermediates and revocation answers are fetched over `http://`. False by default: the decision stays offline.
    public var networkFetchAllowed: Bool {
        get { inputs.networkFetchAllowed }
        set { inputs.networkFetchAllowed = newValue }
    }

    private let evaluateBody: @Sendable (TrustEvaluation) -> TrustReport

    /// Creates a client-trust decision that evaluates with `evaluator` (concurrent callers are fine).
    public init(
        evaluator: TrustEvaluator, anchors: [Certificate], anchorsOnly: Bool = true, intermediates: [Certificate] = [],
        profile: TrustProfile = .apple, expectedIdentities: [GeneralName] = [], trustSettings: TrustSettings = .none,
        crls: [CertificateRevocationList] = [], pins: [SPKIPin] = [], verifyDate: Date? = nil
    ) {
        self.inputs = EvaluationInputs(
            certificates: [], anchors: anchors, anchorsOnly: anchorsOnly, verifyDate: verifyDate,
            trustSettings: trustSettings, crls: crls, pins: pins, additionalIntermediates: intermediates)
        self.profile = profile
        self.expectedIdentities = expectedIdentities
        self.evaluateBody = { evaluator.evaluate($0) }
    }

    /// The evaluation this decision makes for `presentedChain` (leaf first) under the SSL client policy.
    public func evaluation(presentedChain: [Certificate]) -> TrustEvaluation {
        evaluation(presentedChain: presentedChain, stapledOCSPResponse: nil)
    }

    /// Like ``evaluation(presentedChain:)``, with the OCSP response the client stapled (if any) and this
    /// decision's revocation settings.
    public func evaluation(presentedChain: [Certificate], stapledOCSPResponse: OCSPResponse?) -> TrustEvaluation {
        var perCall = inputs
        perCall.certificates = presentedChain
        perCall.policies = [.sslClient(identities: expectedIdentities, profile: profile)]
        perCall.ocspResponses = stapledOCSPResponse.map { [$0] } ?? []
        return TrustEvaluation(perCall)
    }

    /// Decides whether to trust the chain a client presented. An empty chain (the client sent no certificate)
    /// is never trusted.
    public func evaluate(presentedChain: [Certificate]) -> TrustReport {
        evaluate(presentedChain: presentedChain, stapledOCSPResponse: nil)
    }

    /// Like ``evaluate(presentedChain:)``, checking revocation against the OCSP response the client stapled; the
    /// core validates it before use.
    public func evaluate(presentedChain: [Certificate], stapledOCSPResponse: OCSPResponse?) -> TrustReport {
        evaluateBody(evaluation(presentedChain: presentedChain, stapledOCSPResponse: stapledOCSPResponse))
    }

    /// Like ``evaluate(presentedChain:)`` with the chain as the TLS library gives it: DER, leaf first. A leaf
    /// that does not decode makes the result `otherError`, with the reason in the report's error; a later
    /// certificate that does not decode is left out of the pool and listed in ``TrustReport/skippedCertificates``.
    public func evaluate(presentedDER: [[UInt8]]) -> TrustReport {
        evaluate(presentedDER: presentedDER, stapledOCSPResponse: nil)
    }

    /// Like ``evaluate(presentedDER:)`` with the OCSP response the client stapled, as DER (nil: none). A response
    /// that does not decode is no answer, and the report's notes say why.
    public func evaluate(presentedDER: [[UInt8]], stapledOCSPResponse: [UInt8]?) -> TrustReport {
        let decoded: (certificates: [Certificate], skipped: [SkippedCertificate])
        do {
            decoded = try PresentedChain.decodeSkipping(presentedDER, source: "the client's chain")
        } catch {
            return error.report(policy: evaluation(presentedChain: []).policies[0], verifyDate: verifyDate)
        }
        let stapled = StapledOCSPResponse(der: stapledOCSPResponse)
        var pending = evaluation(presentedChain: decoded.certificates, stapledOCSPResponse: stapled.response)
        pending.skippedCertificates = decoded.skipped
        var report = evaluateBody(pending)
        report.notes += stapled.notes
        return report
    }
}
