import Foundation

/// The server-trust decision a TLS client makes in its verification hook: the Linux counterpart of
/// `urlSession(_:didReceive:challenge:completionHandler:)` with `NSURLAuthenticationMethodServerTrust`.
///
/// Let the TLS library complete the handshake *without* deciding trust (verify mode none, or a custom
/// verification callback), hand the chain the server presented and the host you meant to reach to
/// ``evaluate(presentedChain:host:)``, and continue only when the report ``TrustReport/isTrusted``.
/// The decision is certkit's (``TrustEvaluator``: chain building, the Apple SSL policy, pins, exceptions), so it
/// is the same whichever TLS library carried the handshake and whichever backend checks the signatures.
///
/// With swift-nio-ssl's custom verification callback:
/// ```swift
/// import CertKit
/// import CertKitOpenSSL
/// import NIOSSL
///
/// let root = try CertificateBundle.decode(Array(rootPEM.utf8)).certificates
/// let trust = ServerTrust(evaluator: TrustEvaluator(backend: OpenSSLBackend()), anchors: root)
///
/// let handler = try NIOSSLClientHandler(context: context, serverHostname: host) { presented, promise in
///     let der = presented.compactMap { try? $0.toDERBytes() }
///     let report = trust.evaluate(presentedDER: der, host: host)
///     if !report.isTrusted { print("refusing \(host): \(report.error.map(\.description) ?? "\(report.result)")") }
///     promise.succeed(report.isTrusted ? .certificateVerified : .failed)
/// }
/// ```
/// From a plain OpenSSL or GnuTLS client the same call follows the handshake: take
/// `SSL_get_peer_cert_chain` / `gnutls_certificate_get_peers` as DER and call ``evaluate(presentedDER:host:)``
/// before sending anything. (`certkit connect` and `Samples/PinnedClient` do exactly this.)
///
/// Revocation, as `SecTrustSetOCSPResponse` and `SecTrustSetNetworkFetchAllowed` do it: ask the TLS library for a
/// stapled OCSP response (status_request: `SSL_set_tlsext_status_type` then `SSL_get_tlsext_status_ocsp_resp`;
/// `gnutls_ocsp_status_request_enable_client` then `gnutls_ocsp_status_request_get`) and pass its DER to
/// ``evaluate(presentedDER:host:stapledOCSPResponse:)``. The core validates it (signer, certID, freshness at the
/// verify date); a revoked answer makes the chain fail with `Revocation`, one that does not validate or decode is
/// no answer (a note says why). Set ``requireRevocation`` to fail every chain without a positive answer
/// (`RevocationResponseRequired`), ``networkFetchAllowed`` to let an evaluator created with ``NetworkAccess`` fetch
/// missing intermediates and revocation answers over `http://`, and ``revocationMode`` to choose the sources.
/// ```swift
/// var trust = ServerTrust(evaluator: TrustEvaluator(backend: OpenSSLBackend()), anchors: root)
/// trust.requireRevocation = true
/// let report = trust.evaluate(presentedDER: der, host: host, stapledOCSPResponse: stapledDER)
/// ```
///
/// The exceptions flow, as `SecTrustCopyExceptions` / `SecTrustSetExceptions`: after a
/// `recoverableTrustFailure` the user may accept the certificate; keep ``TrustReport/exceptions`` (it serializes
/// with ``TrustExceptions/jsonData()``), set it as ``exceptions`` next time, and the same certificate with the
/// same failures evaluates to `proceed`. A changed certificate or a new failure fails again.
public struct ServerTrust: Sendable {
    /// The inputs every evaluation of this decision shares (the presented chain, the host and the stapled answer
    /// are filled in per call).
    package var inputs: EvaluationInputs
    /// The certificates trusted as anchors (`SecTrustSetAnchorCertificates`), e.g. a root bundled with the app.
    public var anchors: [Certificate] {
        get { inputs.anchors }
        set { inputs.anchors = newValue }
    }
    /// When true (the default) only ``anchors`` are trusted; when false the system bundle is trusted too.
    public var anchorsOnly: Bool {
        get { inputs.anchorsOnly }
        set { inputs.anchorsOnly = newValue }
    }
    /// Extra intermediates for servers that send only their leaf.
    public var intermediates: [Certificate] {
        get { inputs.additionalIntermediates }
        set { inputs.additionalIntermediates = newValue }
    }
    /// `apple` (the default) applies Apple's SSL server rules; `rfc5280` drops them.
    public var profile: TrustProfile
    /// SPKI SHA-256 pins: when not empty, the leaf or a CA of the built chain must match one.
    public var pins: [SPKIPin] {
        get { inputs.pins }
        set { inputs.pins = newValue }
    }
    /// Exceptions the user accepted earlier (`SecTrustSetExceptions`).
    public var exceptions: TrustExceptions? {
        get { inputs.exceptions }
        set { inputs.exceptions = newValue }
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
    /// intermediates (AIA caIssuers) and revocation answers (OCSP, CRL distribution points) are fetched over
    /// `http://`. False by default: the decision stays offline.
    public var networkFetchAllowed: Bool {
        get { inputs.networkFetchAllowed }
        set { inputs.networkFetchAllowed = newValue }
    }

    private let evaluateBody: @Sendable (TrustEvaluation) -> TrustReport

    /// Creates a server-trust decision that evaluates with `evaluator` (concurrent callers are fine).
    public init(
        evaluator: TrustEvaluator, anchors: [Certificate], anchorsOnly: Bool = true, intermediates: [Certificate] = [],
        profile: TrustProfile = .apple, pins: [SPKIPin] = [], exceptions: TrustExceptions? = nil,
        verifyDate: Date? = nil
    ) {
        self.init(
            anchors: anchors, anchorsOnly: anchorsOnly, intermediates: intermediates, profile: profile, pins: pins,
            exceptions: exceptions, verifyDate: verifyDate, evaluate: { evaluator.evaluate($0) })
    }

    /// Creates a server-trust decision that funnels every evaluation into `evaluator`'s serial queue, the pattern
    /// SecTrust users know.
    public init(
        serialEvaluator evaluator: SerialTrustEvaluator, anchors: [Certificate], anchorsOnly: Bool = true,
        intermediates: [Certificate] = [], profile: TrustProfile = .apple, pins: [SPKIPin] = [],
        exceptions: TrustExceptions? = nil, verifyDate: Date? = nil
    ) {
        self.init(
            anchors: anchors, anchorsOnly: anchorsOnly, intermediates: intermediates, profile: profile, pins: pins,
            exceptions: exceptions, verifyDate: verifyDate, evaluate: { evaluator.evaluate($0) })
    }

    private init(
        anchors: [Certificate], anchorsOnly: Bool, intermediates: [Certificate], profile: TrustProfile,
        pins: [SPKIPin], exceptions: TrustExceptions?, verifyDate: Date?,
        evaluate: @escaping @Sendable (TrustEvaluation) -> TrustReport
    ) {
        self.inputs = EvaluationInputs(
            certificates: [], anchors: anchors, anchorsOnly: anchorsOnly, verifyDate: verifyDate,
            exceptions: exceptions, pins: pins, additionalIntermediates: intermediates)
        self.profile = profile
        self.evaluateBody = evaluate
    }

    /// The evaluation this decision makes for `presentedChain` (leaf first) and `host` under the SSL server
    /// policy; `host` may be a DNS name or an IP literal (brackets allowed), nil skips the name check.
    public func evaluation(presentedChain: [Certificate], host: String?) -> TrustEvaluation {
        evaluation(presentedChain: presentedChain, host: host, stapledOCSPResponse: nil)
    }

    /// Like ``evaluation(presentedChain:host:)``, with the OCSP response the server stapled (if any) and this
    /// decision's revocation settings.
    public func evaluation(
        presentedChain: [Certificate], host: String?, stapledOCSPResponse: OCSPResponse?
    ) -> TrustEvaluation {
        var perCall = inputs
        perCall.certificates = presentedChain
        perCall.policies = [.ssl(server: true, name: host.map { PeerName.parse(Self.unbracketed($0)) }, profile: profile)]
        perCall.ocspResponses = stapledOCSPResponse.map { [$0] } ?? []
        return TrustEvaluation(perCall)
    }

    /// Decides whether to trust the chain a server presented for `host`. Call it from the TLS library's
    /// verification hook; proceed only when the report is trusted.
    public func evaluate(presentedChain: [Certificate], host: String?) -> TrustReport {
        evaluate(presentedChain: presentedChain, host: host, stapledOCSPResponse: nil)
    }

    /// Like ``evaluate(presentedChain:host:)``, checking revocation against the OCSP response the server stapled
    /// (`SecTrustSetOCSPResponse`); the core validates it before use.
    public func evaluate(
        presentedChain: [Certificate], host: String?, stapledOCSPResponse: OCSPResponse?
    ) -> TrustReport {
        evaluateBody(evaluation(presentedChain: presentedChain, host: host, stapledOCSPResponse: stapledOCSPResponse))
    }

    /// Like ``evaluate(presentedChain:host:)`` with the chain as the TLS library gives it: DER, leaf first.
    /// A leaf that does not decode makes the result `otherError`, with the reason in the report's error; a later
    /// certificate that does not decode is left out of the pool and listed in ``TrustReport/skippedCertificates``.
    public func evaluate(presentedDER: [[UInt8]], host: String?) -> TrustReport {
        evaluate(presentedDER: presentedDER, host: host, stapledOCSPResponse: nil)
    }

    /// Like ``evaluate(presentedDER:host:)`` with the OCSP response the server stapled, as DER as the TLS library
    /// gives it (nil: none). A response that does not decode is no answer, and the report's notes say why.
    public func evaluate(presentedDER: [[UInt8]], host: String?, stapledOCSPResponse: [UInt8]?) -> TrustReport {
        let decoded: (certificates: [Certificate], skipped: [SkippedCertificate])
        do {
            decoded = try PresentedChain.decodeSkipping(presentedDER)
        } catch {
            return error.report(policy: evaluation(presentedChain: [], host: host).policies[0], verifyDate: verifyDate)
        }
        let stapled = StapledOCSPResponse(der: stapledOCSPResponse)
        var pending = evaluation(presentedChain: decoded.certificates, host: host, stapledOCSPResponse: stapled.response)
        pending.skippedCertificates = decoded.skipped
        var report = evaluateBody(pending)
        report.notes += stapled.notes
        return report
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
