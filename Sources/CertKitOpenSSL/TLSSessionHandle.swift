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
    /// Set to 1 by OpenSSL's certificate callback when the server sends a CertificateRequest; allocated here and
    /// deallocated in `deinit` after the `SSL` that points to it.
    private let certificateRequested: UnsafeMutablePointer<Int32>
    /// Whether an identity was configured (for the refusal message).
    private let presentsIdentity: Bool

    /// Creates the session on `socket`, sending `serverName` as SNI when it is not nil.
    init(context: TLSContextHandle, socket: TCPConnection, serverName: String?, presentsIdentity: Bool = false)
        throws(TLSConnectError)
    {
        OpenSSLErrorQueue.clear()
        certificateRequested = .allocate(capacity: 1)
        certificateRequested.initialize(to: 0)
        guard let session = SSL_new(context.handle) else {
            certificateRequested.deallocate()
            throw .handshake(OpenSSLErrorQueue.error("SSL_new failed").message)
        }
        handle = session
        self.context = context
        self.socket = socket
        self.presentsIdentity = presentsIdentity
        // On a client the certificate callback runs exactly when the server requests a certificate; it only
        // notes that, and lets OpenSSL send the configured identity (or an empty list).
        SSL_set_cert_cb(session, { _, flag in
            flag?.assumingMemoryBound(to: Int32.self).pointee = 1
            return 1
        }, certificateRequested)
        // SSL_set_fd wraps the descriptor in a socket BIO that does not close it: the TCPConnection stays its owner.
        guard SSL_set_fd(session, socket.descriptor) == 1 else {
            throw .handshake(OpenSSLErrorQueue.error("SSL_set_fd failed").message)
        }
        // Ask for a stapled OCSP response (status_request; SSL_set_tlsext_status_type is a macro over SSL_ctrl).
        guard SSL_ctrl(session, SSL_CTRL_SET_TLSEXT_STATUS_REQ_TYPE, Int(TLSEXT_STATUSTYPE_ocsp), nil) == 1 else {
            throw .handshake(OpenSSLErrorQueue.error("cannot request OCSP stapling").message)
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
        certificateRequested.deallocate()
    }

    /// True when the server sent a CertificateRequest during the handshake.
    var serverRequestedCertificate: Bool { certificateRequested.pointee != 0 }

    /// The longest wait for the server's verdict on a client certificate after a TLS 1.3 handshake.
    static let verdictWait: Duration = .seconds(1)

    /// Under TLS 1.3, when the server requested a client certificate, waits for its verdict: a record (a session
    /// ticket or data: accepted), an alert or a closed connection (refused), or `verdictWait` of silence within
    /// `deadline` (accepted). Under TLS 1.2 the verdict was part of the handshake, so this returns at once.
    func awaitClientCertificateVerdict(until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        guard serverRequestedCertificate, SSL_version(handle) == TLS1_3_VERSION else { return }
        let limit = min(deadline, ContinuousClock.now.advanced(by: Self.verdictWait))
        var byte: UInt8 = 0
        while true {
            if let session = SSL_get_session(handle), SSL_SESSION_has_ticket(session) == 1 { return }
            OpenSSLErrorQueue.clear()
            errno = 0
            let status = SSL_peek(handle, &byte, 1)
            if status > 0 { return }
            switch SSL_get_error(handle, status) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                if let session = SSL_get_session(handle), SSL_SESSION_has_ticket(session) == 1 { return }
                do {
                    try socket.wait(forWriting: SSL_get_error(handle, status) == SSL_ERROR_WANT_WRITE, until: limit)
                } catch .timeout {
                    return
                }
            case SSL_ERROR_ZERO_RETURN:
                throw .clientCertificateRefused(presented: presentsIdentity, reason: "the server closed the connection")
            case SSL_ERROR_SYSCALL where ERR_peek_error() == 0:
                OpenSSLErrorQueue.clear()
                throw .clientCertificateRefused(presented: presentsIdentity, reason: "the server closed the connection")
            default:
                throw .clientCertificateRefused(presented: presentsIdentity, reason: Self.reason())
            }
        }
    }

    /// A handshake failure after the server requested a client certificate, blamed on the certificate when the
    /// server ended the handshake with an alert.
    func refusal(_ error: TLSConnectError) -> TLSConnectError {
        guard serverRequestedCertificate, case .handshake(let reason) = error, reason.contains("alert") else { return error }
        return .clientCertificateRefused(presented: presentsIdentity, reason: reason)
    }

    /// Runs the client handshake to completion before `deadline`, waiting with `poll` whenever OpenSSL needs the
    /// socket to become readable or writable.
    func handshake(until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        while true {
            OpenSSLErrorQueue.clear()
            errno = 0
            let status = SSL_connect(handle)
            if status == 1 { return }
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
