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
/// The exceptions flow, as `SecTrustCopyExceptions` / `SecTrustSetExceptions`: after a
/// `recoverableTrustFailure` the user may accept the certificate; keep ``TrustReport/exceptions`` (it serializes
/// with ``TrustExceptions/jsonData()``), set it as ``exceptions`` next time, and the same certificate with the
/// same failures evaluates to `proceed`. A changed certificate or a new failure fails again.
public struct ServerTrust: Sendable {
    /// The certificates trusted as anchors (`SecTrustSetAnchorCertificates`), e.g. a root bundled with the app.
    public var anchors: [Certificate]
    /// When true (the default) only ``anchors`` are trusted; when false the system bundle is trusted too.
    public var anchorsOnly: Bool
    /// Extra intermediates for servers that send only their leaf.
    public var intermediates: [Certificate]
    /// `apple` (the default) applies Apple's SSL server rules; `rfc5280` drops them.
    public var profile: TrustProfile
    /// SPKI SHA-256 pins: when not empty, the leaf or a CA of the built chain must match one.
    public var pins: [SPKIPin]
    /// Exceptions the user accepted earlier (`SecTrustSetExceptions`).
    public var exceptions: TrustExceptions?
    /// The verification time; nil means now.
    public var verifyDate: Date?

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
        self.anchors = anchors
        self.anchorsOnly = anchorsOnly
        self.intermediates = intermediates
        self.profile = profile
        self.pins = pins
        self.exceptions = exceptions
        self.verifyDate = verifyDate
        self.evaluateBody = evaluate
    }

    /// The evaluation this decision makes for `presentedChain` (leaf first) and `host` under the SSL server
    /// policy; `host` may be a DNS name or an IP literal (brackets allowed), nil skips the name check.
    public func evaluation(presentedChain: [Certificate], host: String?) -> TrustEvaluation {
        TrustEvaluation(
            certificates: presentedChain,
            policies: [.ssl(server: true, name: host.map { PeerName.parse(Self.unbracketed($0)) }, profile: profile)],
            anchors: anchors, anchorsOnly: anchorsOnly, verifyDate: verifyDate, exceptions: exceptions, pins: pins,
            additionalIntermediates: intermediates)
    }

    /// Decides whether to trust the chain a server presented for `host`. Call it from the TLS library's
    /// verification hook; proceed only when the report is trusted.
    public func evaluate(presentedChain: [Certificate], host: String?) -> TrustReport {
        evaluateBody(evaluation(presentedChain: presentedChain, host: host))
    }

    /// Like ``evaluate(presentedChain:host:)`` with the chain as the TLS library gives it: DER, leaf first.
    /// A certificate that does not decode makes the result `otherError`, with the reason in the report's error.
    public func evaluate(presentedDER: [[UInt8]], host: String?) -> TrustReport {
        let chain: [Certificate]
        do {
            chain = try PresentedChain.decode(presentedDER)
        } catch {
            let decoded = error.decoded
            return TrustReport(
                result: .otherError, chain: decoded, checks: decoded.map { _ in [] },
                error: TrustError(
                    check: .backendError, certificateIndex: error.index, message: error.description,
                    rule: TrustRules.backendError),
                backend: "certkit", policy: evaluation(presentedChain: [], host: host).policies[0],
                verifyDate: verifyDate ?? Date(), pathsTried: 0, notes: [error.description])
        }
        return evaluate(presentedChain: chain, host: host)
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
