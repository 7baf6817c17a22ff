import CertKit
internal import CertKitSockets
internal import CGnuTLS
internal import Glibc

/// Owns one non-blocking `gnutls_session_t` over a connected socket — a client's, or a loopback server's
/// (``init(serving:socket:decision:)``); deinitializes it exactly once in `deinit` (before the socket and the
/// credentials it keeps alive are released).
///
/// A client session installs no verification function and never calls `gnutls_session_set_verify_cert`, so
/// GnuTLS completes the handshake whatever the server's certificate is.
final class TLSSessionHandle {
    /// The session; valid for the lifetime of this object.
    let handle: gnutls_session_t
    private let credentials: TLSCredentialsHandle
    private let socket: TCPConnection
    /// Whether an identity was configured (for the refusal message).
    private let presentsIdentity: Bool
    /// True for a server session.
    private let isServer: Bool
    /// A server session's decision, kept alive here because the verification hook reaches it through the
    /// session pointer.
    private let decision: ClientCertificateDecision?
    /// A client session's received alerts and session tickets, noted by ``handshake(until:)``, the ticket hook
    /// (reached through the session pointer) and ``firstSignal(until:)``; deallocated in `deinit` after the
    /// session.
    private let signals: UnsafeMutablePointer<TLSReceivedSignals>

    private init(
        flags: Int32, credentials: TLSCredentialsHandle, socket: TCPConnection, presentsIdentity: Bool,
        decision: ClientCertificateDecision? = nil
    ) throws(TLSConnectError) {
        var session: gnutls_session_t?
        // GNUTLS_NO_SIGNAL sends with MSG_NOSIGNAL: a peer that reset the connection does not end the process.
        let code = gnutls_init(&session, UInt32(flags | GNUTLS_NONBLOCK | Int32(GNUTLS_NO_SIGNAL.rawValue)))
        guard code >= 0, let session else {
            throw .handshake("gnutls_init: \(GnuTLSLibrary.errorString(code))")
        }
        handle = session
        signals = .allocate(capacity: 1)
        signals.initialize(to: TLSReceivedSignals())
        self.credentials = credentials
        self.socket = socket
        self.presentsIdentity = presentsIdentity
        self.isServer = flags & GNUTLS_SERVER != 0
        self.decision = decision
        try check(gnutls_set_default_priority(session), "gnutls_set_default_priority")
        try check(gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(credentials.handle)),
                  "gnutls_credentials_set")
        // gnutls_transport_set_int is a macro over gnutls_transport_set_int2; the socket stays the TCPConnection's.
        gnutls_transport_set_int2(session, socket.descriptor, socket.descriptor)
    }

    /// Creates a client session on `socket`, sending `serverName` as SNI when it is not nil.
    convenience init(
        credentials: TLSCredentialsHandle, socket: TCPConnection, serverName: String?, presentsIdentity: Bool = false
    ) throws(TLSConnectError) {
        // With an identity, GNUTLS_FORCE_CLIENT_CERT sends it whatever CAs the server lists as acceptable, as OpenSSL
        // does (GnuTLS would otherwise send no certificate when the list does not name the identity's issuer, and
        // the server's refusal would read as "none was presented"). The server decides, as with OpenSSL.
        let flags = GNUTLS_CLIENT | (presentsIdentity ? Int32(GNUTLS_FORCE_CLIENT_CERT.rawValue) : 0)
        try self.init(flags: flags, credentials: credentials, socket: socket, presentsIdentity: presentsIdentity)
        if let serverName {
            let bytes = Array(serverName.utf8)
            try check(gnutls_server_name_set(handle, GNUTLS_NAME_DNS, bytes, bytes.count), "gnutls_server_name_set")
        }
        // Ask for a stapled OCSP response (status_request); the core validates whatever comes back.
        try check(gnutls_ocsp_status_request_enable_client(handle, nil, 0, nil), "gnutls_ocsp_status_request_enable_client")
        // Session tickets are noted as they are processed, in order with what the same gnutls_record_recv call
        // returns after them (an alert, a close).
        gnutls_session_set_ptr(handle, signals)
        gnutls_handshake_set_hook_function(
            handle, UInt32(GNUTLS_HANDSHAKE_NEW_SESSION_TICKET.rawValue), Int32(GNUTLS_HOOK_POST)
        ) { session, _, _, incoming, _ in
            guard let session, incoming != 0, let pointer = gnutls_session_get_ptr(session) else { return 0 }
            pointer.assumingMemoryBound(to: TLSReceivedSignals.self).pointee.receivedSessionTicket()
            return 0
        }
    }

    /// Creates a server session on an accepted `socket` that requires a client certificate
    /// (`gnutls_certificate_server_set_request(GNUTLS_CERT_REQUIRE)`) and lets `decision` judge the presented chain
    /// in GnuTLS's verification hook (`gnutls_session_set_verify_function`): a refusal fails the handshake with
    /// `GNUTLS_E_CERTIFICATE_ERROR`.
    convenience init(serving credentials: TLSCredentialsHandle, socket: TCPConnection, decision: ClientCertificateDecision)
        throws(TLSConnectError)
    {
        try self.init(flags: GNUTLS_SERVER, credentials: credentials, socket: socket, presentsIdentity: false,
                      decision: decision)
        gnutls_certificate_server_set_request(handle, GNUTLS_CERT_REQUIRE)
        gnutls_session_set_ptr(handle, Unmanaged.passUnretained(decision).toOpaque())
        gnutls_session_set_verify_function(handle) { session in
            guard let session, let pointer = gnutls_session_get_ptr(session) else { return -1 }
            let decision = Unmanaged<ClientCertificateDecision>.fromOpaque(pointer).takeUnretainedValue()
            return decision.judge(TLSSessionHandle.peers(of: session)) ? 0 : -1
        }
    }

    deinit {
        gnutls_deinit(handle)
        signals.deinitialize(count: 1)
        signals.deallocate()
    }

    /// Runs the handshake to completion before `deadline`, waiting with `poll` in the direction GnuTLS was
    /// blocked on. A server that fails the handshake tells the client why with the matching alert
    /// (`gnutls_alert_send_appropriate`: bad_certificate for a refused chain, certificate_required for none).
    func handshake(until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        while true {
            let code = gnutls_handshake(handle)
            if code >= 0 {
                signals.pointee.handshakeComplete = true
                return
            }
            if code == GNUTLS_E_FATAL_ALERT_RECEIVED || code == GNUTLS_E_WARNING_ALERT_RECEIVED {
                let alert = UInt8(truncatingIfNeeded: gnutls_alert_get(handle).rawValue)
                signals.pointee.receivedAlert(alert, fatal: code == GNUTLS_E_FATAL_ALERT_RECEIVED)
            }
            if code == GNUTLS_E_AGAIN || code == GNUTLS_E_INTERRUPTED || gnutls_error_is_fatal(code) == 0 {
                try socket.wait(forWriting: gnutls_record_get_direction(handle) == 1, until: deadline)
                continue
            }
            if isServer { _ = gnutls_alert_send_appropriate(handle, code) }
            throw Self.failure(code, session: handle, peer: isServer ? "client" : "server")
        }
    }

    /// True when the server sent a CertificateRequest during the handshake.
    var serverRequestedCertificate: Bool { gnutls_certificate_client_get_request_status(handle) != 0 }

    /// The longest wait for the server's verdict on a client certificate after a TLS 1.3 handshake.
    static let verdictWait: Duration = .seconds(1)

    /// Under TLS 1.3, when the server requested a client certificate, waits (at most `verdictWait`, within
    /// `deadline`) for what the server sends first and lets ``PostHandshakeSignal/refusal(presented:)`` decide:
    /// only an alert is a refusal. Under TLS 1.2 the verdict was part of the handshake, so this returns at once.
    /// - Throws: ``TLSConnectError/clientCertificateRefused(presented:reason:)`` for an alert, or
    ///   ``TLSConnectError/network(_:)`` when what arrived is not TLS the library can read.
    func awaitClientCertificateVerdict(until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        guard serverRequestedCertificate, gnutls_protocol_get_version(handle) == GNUTLS_TLS1_3 else { return }
        let signal = try firstSignal(until: min(deadline, ContinuousClock.now.advanced(by: Self.verdictWait)))
        if let refusal = signal.refusal(presented: presentsIdentity) { throw refusal }
    }

    /// What the server sends first after the handshake, or silence at `limit`. Reads at most one byte of data
    /// (then discarded: the client only captures the chain); a ticket the hook noted during a call came before
    /// what the call returns.
    private func firstSignal(until limit: ContinuousClock.Instant) throws(TLSConnectError) -> PostHandshakeSignal {
        var byte: UInt8 = 0
        while true {
            errno = 0
            let code = gnutls_record_recv(handle, &byte, 1)
            let number = errno
            if let first = signals.pointee.first { return first }
            if code > 0 { return .applicationData }
            if code == 0 { return .closeNotify }
            let error = Int32(code)
            switch error {
            case GNUTLS_E_AGAIN, GNUTLS_E_INTERRUPTED:
                do {
                    try socket.wait(forWriting: gnutls_record_get_direction(handle) == 1, until: limit)
                } catch .timeout {
                    return .silence
                }
            case GNUTLS_E_FATAL_ALERT_RECEIVED, GNUTLS_E_WARNING_ALERT_RECEIVED:
                let alert = UInt8(truncatingIfNeeded: gnutls_alert_get(handle).rawValue)
                return alert == 0 ? .closeNotify : .alert(alert)
            case GNUTLS_E_PREMATURE_TERMINATION:
                return .closedWithoutCloseNotify
            case GNUTLS_E_PULL_ERROR where number == ECONNRESET:
                return .reset
            default:
                throw .network("TLS failed after the handshake: \(Self.reason(error, session: handle))")
            }
        }
    }

    /// A handshake failure after the server requested a client certificate, blamed on the certificate when the
    /// server ended the handshake with an alert (TLS 1.2, where the verdict is part of the handshake), named as
    /// the OpenSSL client names it.
    func refusal(_ error: TLSConnectError) -> TLSConnectError {
        guard serverRequestedCertificate, error.code == .handshake,
              let alert = signals.pointee.handshakeAlert, alert != 0
        else { return error }
        return .clientCertificateRefused(presented: presentsIdentity, reason: TLSAlert.reason(alert))
    }

    /// GnuTLS's reason, with the alert's name when the error is a received alert.
    private static func reason(_ code: Int32, session: gnutls_session_t) -> String {
        let text = GnuTLSLibrary.errorString(code)
        guard code == GNUTLS_E_FATAL_ALERT_RECEIVED || code == GNUTLS_E_WARNING_ALERT_RECEIVED,
              let name = gnutls_alert_get_name(gnutls_alert_get(session))
        else { return text }
        return "\(text): \(String(cString: name))"
    }

    /// Sends close_notify once, without waiting for the peer's.
    func shutdown() {
        _ = gnutls_bye(handle, GNUTLS_SHUT_WR)
    }

    /// Writes all of `bytes` (`gnutls_record_send`) before `deadline`.
    func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { gnutls_record_send(handle, $0.baseAddress! + written, $0.count - written) }
            if count > 0 {
                written += count
            } else if count == GNUTLS_E_AGAIN || count == GNUTLS_E_INTERRUPTED {
                try socket.wait(forWriting: gnutls_record_get_direction(handle) == 1, until: deadline)
            } else {
                throw .network(GnuTLSLibrary.errorString(Int32(count)))
            }
        }
    }

    /// The chain the peer presented, leaf first, as DER (`gnutls_certificate_get_peers`). The data stays owned by
    /// the session; only the bytes are copied.
    func peerChain() -> [[UInt8]] { Self.peers(of: handle) }

    /// The certificates the peer of `session` presented, leaf first, as DER (copied).
    private static func peers(of session: gnutls_session_t) -> [[UInt8]] {
        var count: UInt32 = 0
        guard let list = gnutls_certificate_get_peers(session, &count) else { return [] }
        return (0..<Int(count)).map { index in
            let datum = list[index]
            guard let data = datum.data else { return [] }
            return Array(UnsafeBufferPointer(start: data, count: Int(datum.size)))
        }.filter { !$0.isEmpty }
    }

    /// The OCSP response the server stapled (`gnutls_ocsp_status_request_get`), copied; nil when it sent none.
    func stapledOCSPResponse() -> [UInt8]? {
        var datum = gnutls_datum_t()
        guard gnutls_ocsp_status_request_get(handle, &datum) == 0, let data = datum.data, datum.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(datum.size)))
    }

    private func check(_ code: Int32, _ operation: String) throws(TLSConnectError) {
        if code < 0 { throw .handshake("\(operation): \(GnuTLSLibrary.errorString(code))") }
    }

    /// Errors GnuTLS reports when the bytes it received are not a TLS record at all.
    private static let notTLSCodes: Set<Int32> = [
        GNUTLS_E_UNEXPECTED_PACKET_LENGTH, GNUTLS_E_UNSUPPORTED_VERSION_PACKET, GNUTLS_E_UNEXPECTED_PACKET,
        GNUTLS_E_RECORD_OVERFLOW,
    ]

    private static func failure(_ code: Int32, session: gnutls_session_t, peer: String) -> TLSConnectError {
        let reason = reason(code, session: session)
        if notTLSCodes.contains(code) { return .notTLS(reason) }
        if code == GNUTLS_E_PREMATURE_TERMINATION { return .handshake("the \(peer) closed the connection (\(reason))") }
        return .handshake(reason)
    }
}
