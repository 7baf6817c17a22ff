/// What a TLS 1.3 server sent first after a handshake in which it requested a client certificate: its verdict on
/// that certificate, or the lack of one.
///
/// Under TLS 1.3 the client's handshake is complete when it has sent its certificate and Finished; the server
/// judges the certificate afterwards, so its verdict can only show in what it sends next. Both TLS clients map what
/// their library reports to one of these cases (the first message wins: a session ticket followed by an alert is
/// a ticket) and ``refusal(presented:)`` decides, so the OpenSSL and GnuTLS clients decide alike.
package enum PostHandshakeSignal: Sendable, Hashable {
    /// A NewSessionTicket: the server read the client's Finished, which follows its certificate, and went on.
    case sessionTicket
    /// Application data.
    case applicationData
    /// A close_notify alert: the server ended the connection cleanly.
    case closeNotify
    /// Any alert other than close_notify (its description, e.g. 48 unknown_ca, 116 certificate_required). Under TLS
    /// 1.3 every such alert ends the connection whatever its level says.
    case alert(UInt8)
    /// The server closed the TCP connection without close_notify and without an alert.
    case closedWithoutCloseNotify
    /// The server reset the TCP connection without an alert.
    case reset
    /// Nothing within the wait (at most one second, within the caller's timeout).
    case silence

    /// The refusal this signal is, or nil when it is none. Only an alert refuses: a TLS 1.3 server that refuses a
    /// client certificate aborts with an alert (RFC 8446 §4.4.2.4, §6.2). A ticket, data or close_notify says the
    /// server went on after reading the certificate; a close without close_notify, a reset or silence says
    /// nothing about it, and is not taken as a refusal the server did not send (the handshake completed, and the
    /// server's own certificate chain was authenticated by it).
    /// - Parameter presented: whether the client presented a certificate (for the message).
    package func refusal(presented: Bool) -> TLSConnectError? {
        switch self {
        case .alert(let description):
            return .clientCertificateRefused(presented: presented, reason: TLSAlert.reason(description))
        case .closeNotify:
            return nil
        case .sessionTicket, .applicationData:
            return nil
        case .closedWithoutCloseNotify, .reset, .silence:
            return nil
        }
    }
}

/// The first alert and the first post-handshake message a TLS client session received, as its library's
/// callbacks report them (both TLS clients keep one per session).
package struct TLSReceivedSignals: Sendable {
    /// Set once the client's handshake has completed; what arrives later is post-handshake.
    package var handshakeComplete = false
    /// The first fatal alert received during the handshake (its description), nil when none came. A warning alert
    /// does not end a TLS 1.2 handshake, so it is not the server's verdict.
    package private(set) var handshakeAlert: UInt8?
    /// The first post-handshake message (a ticket or an alert; data and closes are seen by the caller).
    package private(set) var first: PostHandshakeSignal?

    package init() {}

    /// Notes an alert with `description` (0 is close_notify) sent at the fatal level or not. After the handshake
    /// the level does not matter: under TLS 1.3 every alert but close_notify and user_canceled is fatal whatever
    /// it says, and user_canceled after the handshake is the server giving up on the connection.
    package mutating func receivedAlert(_ description: UInt8, fatal: Bool) {
        if handshakeComplete {
            record(description == 0 ? .closeNotify : .alert(description))
        } else if fatal, handshakeAlert == nil {
            handshakeAlert = description
        }
    }

    /// Notes a NewSessionTicket (one during a TLS 1.2 handshake is no post-handshake signal).
    package mutating func receivedSessionTicket() {
        if handshakeComplete { record(.sessionTicket) }
    }

    /// Notes `signal` unless an earlier one was noted.
    package mutating func record(_ signal: PostHandshakeSignal) {
        if first == nil { first = signal }
    }
}
