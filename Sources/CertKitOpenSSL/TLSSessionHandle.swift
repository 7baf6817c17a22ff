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

    /// Creates the session on `socket`, sending `serverName` as SNI when it is not nil.
    init(context: TLSContextHandle, socket: TCPConnection, serverName: String?) throws(TLSConnectError) {
        OpenSSLErrorQueue.clear()
        guard let session = SSL_new(context.handle) else {
            throw .handshake(OpenSSLErrorQueue.error("SSL_new failed").message)
        }
        handle = session
        self.context = context
        self.socket = socket
        // SSL_set_fd wraps the descriptor in a socket BIO that does not close it: the TCPConnection stays its owner.
        guard SSL_set_fd(session, socket.descriptor) == 1 else {
            throw .handshake(OpenSSLErrorQueue.error("SSL_set_fd failed").message)
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

    deinit { SSL_free(handle) }

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

    /// Reasons OpenSSL gives when the bytes it received are not a TLS record at all.
    private static let notTLSReasons: Set<Int32> = [
        SSL_R_WRONG_VERSION_NUMBER, SSL_R_PACKET_LENGTH_TOO_LONG, SSL_R_HTTP_REQUEST, SSL_R_RECORD_LENGTH_MISMATCH,
        SSL_R_UNEXPECTED_RECORD,
    ]

    /// Classifies the failure on OpenSSL's error queue (and empties the queue).
    private static func failure() -> TLSConnectError {
        let first = ERR_peek_error()
        let reason = first == 0 ? "" : OpenSSLErrorQueue.error("").message
            .trimmingPrefix(": ").description
        let text = reason.isEmpty ? "unknown OpenSSL error" : reason
        if first != 0, ERR_GET_LIB(first) == ERR_LIB_SSL {
            if notTLSReasons.contains(ERR_GET_REASON(first)) { return .notTLS(text) }
            if ERR_GET_REASON(first) == SSL_R_UNEXPECTED_EOF_WHILE_READING {
                return .handshake("the server closed the connection (\(text))")
            }
        }
        return .handshake(text)
    }
}
