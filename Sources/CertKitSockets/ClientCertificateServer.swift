/// A loopback TLS server that requires a client certificate and lets certkit decide on it (package access: the
/// `ClientTrustServer` sample and its tests; certkit is not a server library). `OpenSSLClientCertificateServer`
/// and `GnuTLSClientCertificateServer` replace their library's own verification of the client's chain with a
/// ``ClientCertificateDecision`` (typically `ClientTrust`), and a refusal ends the handshake with an alert, so the
/// client sees it (during the handshake under TLS 1.2, as its first record after it under TLS 1.3).
package protocol ClientCertificateServer: AnyObject {
    /// The decision the library's verification hook calls, and the chain it last saw.
    var decision: ClientCertificateDecision { get }

    /// Runs the server side of one connection on `socket` before `deadline`: the handshake (the client must
    /// present a certificate that ``decision`` accepts), then `reply` (if the client still listens), then
    /// close_notify.
    func serve(_ socket: TCPConnection, until deadline: ContinuousClock.Instant, reply: [UInt8]) throws(TLSConnectError)
}

extension ClientCertificateServer {
    /// Accepts one client on `listener` and serves it (``serve(_:until:reply:)``), all within `timeout`.
    /// - Returns: the chain the client presented, leaf first (DER).
    /// - Throws: a ``TLSConnectError`` when no client came in time or the handshake failed (a refused client
    ///   certificate included: then ``presentedChain`` still holds what was presented).
    package func serveOne(on listener: TCPListener, timeout: Duration, reply: [UInt8]) throws(TLSConnectError)
        -> [[UInt8]]
    {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        decision.presented = []
        let socket = try listener.accept(until: deadline)
        try serve(socket, until: deadline, reply: reply)
        return decision.presented
    }

    /// The chain the last client presented, leaf first (empty when it presented none).
    package var presentedChain: [[UInt8]] { decision.presented }
}

/// What a ``ClientCertificateServer`` asks about each client's chain (leaf first, DER), and what it was last
/// asked: the TLS library's verification callback reaches it through the callback's context pointer.
package final class ClientCertificateDecision {
    /// Judges a presented chain: true lets the handshake go on.
    package let decide: ([[UInt8]]) -> Bool
    /// The chain of the last call.
    package var presented: [[UInt8]] = []

    /// Creates a decision that asks `decide`.
    package init(decide: @escaping ([[UInt8]]) -> Bool) { self.decide = decide }

    /// Records `chain` and asks ``decide``.
    package func judge(_ chain: [[UInt8]]) -> Bool {
        presented = chain
        return decide(chain)
    }
}
