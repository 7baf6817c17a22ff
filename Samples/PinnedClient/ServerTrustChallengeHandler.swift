import CertKit
import Foundation

/// What the handler decides, named after `URLSession.AuthChallengeDisposition`.
enum ChallengeDisposition: String {
    /// The chain is trusted: continue with this server (`.useCredential` with `URLCredential(trust:)`).
    case useCredential
    /// The chain is not trusted: abort the connection (`.cancelAuthenticationChallenge`).
    case cancelAuthenticationChallenge
}

/// The server-trust challenge a TLS handshake raises: who we meant to reach and what the server presented
/// (the Linux counterpart of `URLAuthenticationChallenge.protectionSpace.serverTrust`).
struct ServerTrustChallenge {
    /// The host of the URL, checked against the leaf's subjectAltName.
    var host: String
    /// The chain the server presented, leaf first, as the TLS library gave it (DER).
    var presentedChain: [[UInt8]]
}

/// The Linux counterpart of the classic delegate method
/// `urlSession(_:didReceive:completionHandler:)` for `NSURLAuthenticationMethodServerTrust`: trust exactly the
/// root bundled with the app, evaluated on one serial queue (``SerialTrustEvaluator``) as apps do with SecTrust.
final class PinnedServerTrustHandler: Sendable {
    private let trust: ServerTrust

    /// Trusts only `anchors` (the bundled root), with Apple's SSL server rules.
    init(anchors: [Certificate], evaluator: SerialTrustEvaluator) {
        trust = ServerTrust(serialEvaluator: evaluator, anchors: anchors, anchorsOnly: true)
    }

    /// Decides the challenge and says why, as a delegate would before calling its completion handler.
    func urlSession(
        didReceive challenge: ServerTrustChallenge,
        completionHandler: (ChallengeDisposition, TrustReport) -> Void
    ) {
        let report = trust.evaluate(presentedDER: challenge.presentedChain, host: challenge.host)
        completionHandler(report.isTrusted ? .useCredential : .cancelAuthenticationChallenge, report)
    }
}
