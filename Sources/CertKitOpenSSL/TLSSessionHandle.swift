import CertKit
internal import CertKitSockets
internal import COpenSSL
internal import COpenSSLShims
internal import Glibc

/// Owns one client `SSL` over a connected socket; frees it exactly once in `deinit` (before the socket and the
/// context it keeps alive are released).
final class TLSSessionHandle {
    /// The `SSL *`; valid for the lifetime of this object.
    let handle: OpaquePointer
    private let context: TLSContextHandle
    private let socket: TCPConnection
    /// What OpenSSL's callbacks saw: whether the server sent a CertificateRequest (the certificate callback) and
    /// the alerts and session tickets received (the message callback). Allocated here and deallocated in `deinit`
    /// after the `SSL` that points to it.
    private let observations: UnsafeMutablePointer<Observations>
    /// Whether an identity was configured (for the refusal message).
    private let presentsIdentity: Bool

    /// What the callbacks of one session note.
    struct Observations {
        var certificateRequested = false
        var signals = TLSReceivedSignals()
    }

    /// Creates the session on `socket`, sending `serverName` as SNI when it is not nil.
    init(context: TLSContextHandle, socket: TCPConnection, serverName: String?, presentsIdentity: Bool = false)
        throws(TLSConnectError)
    {
        OpenSSLErrorQueue.clear()
        observations = .allocate(capacity: 1)
        observations.initialize(to: Observations())
        guard let session = SSL_new(context.handle) else {
            observations.deinitialize(count: 1)
            observations.deallocate()
            throw .handshake(OpenSSLErrorQueue.error("SSL_new failed").message)
        }
        handle = session
        self.context = context
        self.socket = socket
        self.presentsIdentity = presentsIdentity
        // On a client the certificate callback runs exactly when the server requests a certificate; it only
        // notes that, and lets OpenSSL send the configured identity (or an empty list).
        SSL_set_cert_cb(session, { _, argument in
            argument?.assumingMemoryBound(to: Observations.self).pointee.certificateRequested = true
            return 1
        }, observations)
        // The message callback sees every alert and handshake message received, in order; it notes alerts and
        // session tickets (SSL_set_msg_callback_arg is a macro over SSL_ctrl).
        SSL_set_msg_callback(session) { written, _, contentType, buffer, length, _, argument in
            guard written == 0, let buffer, let argument else { return }
            let bytes = buffer.assumingMemoryBound(to: UInt8.self)
            let observations = argument.assumingMemoryBound(to: Observations.self)
            if contentType == SSL3_RT_ALERT, length >= 2 {
                observations.pointee.signals.receivedAlert(bytes[1], fatal: bytes[0] == SSL3_AL_FATAL)
            } else if contentType == SSL3_RT_HANDSHAKE, length >= 1, bytes[0] == SSL3_MT_NEWSESSION_TICKET {
                observations.pointee.signals.receivedSessionTicket()
            }
        }
        SSL_ctrl(session, SSL_CTRL_SET_MSG_CALLBACK_ARG, 0, observations)
        // SSL_set_fd wraps the descriptor in a socket BIO that does not close it: the TCPConnection stays its owner.
        guard SSL_set_fd(session, socket.descriptor) == 1 else {
            throw .handshake(OpenSSLErrorQueue.error("SSL_set_fd failed").message)
        }
        // Ask for a stapled OCSP response (status_request; SSL_set_tlsext_status_type is a macro over SSL_ctrl).
        guard SSL_ctrl(session, SSL_CTRL_SET_TLSEXT_STATUS_REQ_TYPE, Int(TLSEXT_STATUSTYPE_ocsp), nil) == 1 else {
            throw .handshake(OpenSSLErrorQueue.error("cannot request OCSP stapling").message)
        }
        // Ask for SCTs (the signed_certificate_timestamp extension). Permissive: OpenSSL's own CT validation
        // never refuses the handshake; the core judges the SCTs (CertificateTransparencyCheck).
        guard SSL_enable_ct(session, Int32(SSL_CT_VALIDATION_PERMISSIVE)) == 1 else {
            throw .handshake(OpenSSLErrorQueue.error("cannot request signed certificate timestamps").message)
        }
        if let serverName {
            // SSL_set_tlsext_host_name is a macro over SSL_ctrl; this is its expansion.
            let accepted = serverName.withCString { name in
                SSL_ctrl(session, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name), UnsafeMutableRawPointer(mutating: name))
            }
            guard accepted == 1 else {
                throw .handshake(OpenSSLErrorQueue.error("cannot send server name '\(serverName)'").message)
            }
        }
    }

    deinit {
        SSL_free(handle)
        observations.deinitialize(count: 1)
        observations.deallocate()
    }

    /// True when the server sent a CertificateRequest during the handshake.
    var serverRequestedCertificate: Bool { observations.pointee.certificateRequested }

    /// The longest wait for the server's verdict on a client certificate after a TLS 1.3 handshake.
    static let verdictWait: Duration = .seconds(1)

    /// Under TLS 1.3, when the server requested a client certificate, waits (at most `verdictWait`, within
    /// `deadline`) for what the server sends first and lets ``PostHandshakeSignal/refusal(presented:)`` decide:
    /// only an alert is a refusal. Under TLS 1.2 the verdict was part of the handshake, so this returns at once.
    /// - Throws: ``TLSConnectError/clientCertificateRefused(presented:reason:)`` for an alert, or
    ///   ``TLSConnectError/network(_:)`` when what arrived is not TLS the library can read.
    func awaitClientCertificateVerdict(until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        guard serverRequestedCertificate, SSL_version(handle) == TLS1_3_VERSION else { return }
        let signal = try firstSignal(until: min(deadline, ContinuousClock.now.advanced(by: Self.verdictWait)))
        if let refusal = signal.refusal(presented: presentsIdentity) { throw refusal }
    }

    /// What the server sends first after the handshake (`SSL_peek`, which leaves data unread), or silence at
    /// `limit`. The message callback orders tickets and alerts that one call processes together.
    private func firstSignal(until limit: ContinuousClock.Instant) throws(TLSConnectError) -> PostHandshakeSignal {
        var byte: UInt8 = 0
        while true {
            OpenSSLErrorQueue.clear()
            errno = 0
            let status = SSL_peek(handle, &byte, 1)
            let number = errno
            let error = SSL_get_error(handle, status)
            if let first = observations.pointee.signals.first {
                OpenSSLErrorQueue.clear()
                return first
            }
            if status > 0 { return .applicationData }
            switch error {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                do {
                    try socket.wait(forWriting: error == SSL_ERROR_WANT_WRITE, until: limit)
                } catch .timeout {
                    return .silence
                }
            case SSL_ERROR_ZERO_RETURN:
                return .closeNotify
            case SSL_ERROR_SYSCALL where ERR_peek_error() == 0:
                if number == 0 { return .closedWithoutCloseNotify }
                if number == ECONNRESET { return .reset }
                throw .network(String(cString: strerror(number)))
            case SSL_ERROR_SSL where ERR_GET_REASON(ERR_peek_error()) == SSL_R_UNEXPECTED_EOF_WHILE_READING:
                OpenSSLErrorQueue.clear()
                return .closedWithoutCloseNotify
            default:
                throw .network("TLS failed after the handshake: \(Self.reason())")
            }
        }
    }

    /// A handshake failure after the server requested a client certificate, blamed on the certificate when the
    /// server ended the handshake with an alert (TLS 1.2, where the verdict is part of the handshake), named as
    /// the GnuTLS client names it.
    func refusal(_ error: TLSConnectError) -> TLSConnectError {
        guard serverRequestedCertificate, error.code == .handshake,
              let alert = observations.pointee.signals.handshakeAlert, alert != 0
        else { return error }
        return .clientCertificateRefused(presented: presentsIdentity, reason: TLSAlert.reason(alert))
    }

    /// Runs the client handshake to completion before `deadline`, waiting with `poll` whenever OpenSSL needs the
    /// socket to become readable or writable.
    func handshake(until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        while true {
            OpenSSLErrorQueue.clear()
            errno = 0
            let status = SSL_connect(handle)
            if status == 1 {
                observations.pointee.signals.handshakeComplete = true
                return
            }
            let error = SSL_get_error(handle, status)
            switch error {
            case SSL_ERROR_WANT_READ:
                try socket.wait(forWriting: false, until: deadline)
            case SSL_ERROR_WANT_WRITE:
                try socket.wait(forWriting: true, until: deadline)
            case SSL_ERROR_SYSCALL where ERR_peek_error() == 0:
                let number = errno
                OpenSSLErrorQueue.clear()
                if number == ECONNRESET { throw .network("connection reset by peer") }
                if number == 0 { throw .handshake("the server closed the connection") }
                throw .network(String(cString: strerror(number)))
            default:
                throw Self.failure()
            }
        }
    }

    /// Sends close_notify once, without waiting for the server's; errors are irrelevant at this point.
    func shutdown() {
        _ = SSL_shutdown(handle)
        OpenSSLErrorQueue.clear()
    }

    /// The chain the server presented, leaf first, as DER (`SSL_get_peer_cert_chain`, which on a client
    /// includes the leaf). The certificates stay owned by the session; only their encodings are copied.
    func peerChain() -> [[UInt8]] {
        guard let stack = SSL_get_peer_cert_chain(handle) else { return [] }
        var chain: [[UInt8]] = []
        for index in 0..<certkit_sk_X509_num(stack) {
            guard let certificate = certkit_sk_X509_value(stack, index) else { continue }
            let length = i2d_X509(certificate, nil)
            guard length > 0 else { continue }
            var der = [UInt8](repeating: 0, count: Int(length))
            let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var cursor = buffer.baseAddress
                return i2d_X509(certificate, &cursor)
            }
            if written == length { chain.append(der) }
        }
        OpenSSLErrorQueue.clear()
        return chain
    }

    /// The OCSP response the server stapled (`SSL_get_tlsext_status_ocsp_resp`, a macro over SSL_ctrl), copied;
    /// nil when it sent none. The bytes stay owned by the session.
    func stapledOCSPResponse() -> [UInt8]? {
        var response: UnsafeMutablePointer<UInt8>?
        let length = withUnsafeMutablePointer(to: &response) { pointer in
            SSL_ctrl(handle, SSL_CTRL_GET_TLSEXT_STATUS_REQ_OCSP_RESP, 0, UnsafeMutableRawPointer(pointer))
        }
        OpenSSLErrorQueue.clear()
        guard length > 0, let response else { return nil }
        return Array(UnsafeBufferPointer(start: response, count: length))
    }

    /// The SCTs the server sent in its signed_certificate_timestamp extension (`SSL_get0_peer_scts`, those whose
    /// source is the TLS extension), re-encoded as one SignedCertificateTimestampList (`i2o_SCT_LIST`); nil when
    /// it sent none. The SCTs stay owned by the session.
    func signedCertificateTimestamps() -> [UInt8]? {
        defer { OpenSSLErrorQueue.clear() }
        guard let all = SSL_get0_peer_scts(handle), let fromTLS = certkit_sk_SCT_new_null() else { return nil }
        defer { certkit_sk_SCT_free(fromTLS) }
        for index in 0..<certkit_sk_SCT_num(all) {
            guard let sct = certkit_sk_SCT_value(all, index), SCT_get_source(sct) == SCT_SOURCE_TLS_EXTENSION else { continue }
            guard certkit_sk_SCT_push(fromTLS, sct) > 0 else { return nil }
        }
        guard certkit_sk_SCT_num(fromTLS) > 0 else { return nil }
        var encoded: UnsafeMutablePointer<UInt8>?
        let length = i2o_SCT_LIST(fromTLS, &encoded)
        guard length > 0, let encoded else { return nil }
        defer { CRYPTO_free(encoded, nil, 0) }
        return Array(UnsafeBufferPointer(start: encoded, count: Int(length)))
    }

    /// Reasons OpenSSL gives when the bytes it received are not a TLS record at all.
    private static let notTLSReasons: Set<Int32> = [
        SSL_R_WRONG_VERSION_NUMBER, SSL_R_PACKET_LENGTH_TOO_LONG, SSL_R_HTTP_REQUEST, SSL_R_RECORD_LENGTH_MISMATCH,
        SSL_R_UNEXPECTED_RECORD,
    ]

    /// OpenSSL's reasons on the error queue as one line (and empties the queue).
    private static func reason() -> String {
        let reason = ERR_peek_error() == 0 ? "" : OpenSSLErrorQueue.error("").message.trimmingPrefix(": ").description
        return reason.isEmpty ? "unknown OpenSSL error" : reason
    }

    /// Classifies the failure on OpenSSL's error queue (and empties the queue).
    private static func failure() -> TLSConnectError {
        let first = ERR_peek_error()
        let text = reason()
        if first != 0, ERR_GET_LIB(first) == ERR_LIB_SSL {
            if notTLSReasons.contains(ERR_GET_REASON(first)) { return .notTLS(text) }
            if ERR_GET_REASON(first) == SSL_R_UNEXPECTED_EOF_WHILE_READING {
                return .handshake("the server closed the connection (\(text))")
            }
        }
        return .handshake(text)
    }
}
