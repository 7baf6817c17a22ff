import CertKit
public import CertKitSockets
internal import COpenSSL
internal import Glibc

extension OpenSSLTLSClient {
    /// Sends `request` over TLS to `host:port` and returns everything the server sends back until it closes (at
    /// most `limit + 1` bytes), all within `timeout` (`https://` downloads).
    ///
    /// As for ``fetchDER(host:port:serverName:timeout:)``, OpenSSL does not judge the server's certificate: the
    /// caller must authenticate what it receives by other means (`certkit trust add URL --sha256 HEX` compares the
    /// downloaded certificate with a fingerprint checked out of band).
    public func exchange(
        host: String, port: UInt16, serverName: String?, request: [UInt8], limit: Int, timeout: Duration
    ) throws(TLSConnectError) -> [UInt8] {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let context = try TLSContextHandle()
        let socket = try TCPConnection.connect(host: host, port: port, deadline: deadline)
        let session = try TLSSessionHandle(context: context, socket: socket, serverName: serverName)
        // OpenSSL writes with write(2): a server that reset the connection must not end the process with SIGPIPE.
        return try BrokenPipeGuard.run { () throws(TLSConnectError) in
            try session.handshake(until: deadline)
            try session.write(request, socket: socket, until: deadline)
            let response = try session.readAll(limit: limit, socket: socket, until: deadline)
            session.shutdown()
            return response
        }
    }
}

extension TLSSessionHandle {
    /// Writes all of `bytes` (`SSL_write`), waiting on `socket` whenever OpenSSL needs it.
    func write(_ bytes: [UInt8], socket: TCPConnection, until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        var written = 0
        while written < bytes.count {
            OpenSSLErrorQueue.clear()
            let count = bytes.withUnsafeBytes { raw in
                SSL_write(handle, raw.baseAddress! + written, Int32(clamping: raw.count - written))
            }
            if count > 0 {
                written += Int(count)
                continue
            }
            try wait(after: count, socket: socket, until: deadline)
        }
    }

    /// Reads until the server closes (`SSL_read` returns 0 or close_notify), at most `limit + 1` bytes.
    func readAll(limit: Int, socket: TCPConnection, until deadline: ContinuousClock.Instant) throws(TLSConnectError)
        -> [UInt8]
    {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while received.count <= limit {
            OpenSSLErrorQueue.clear()
            errno = 0
            let count = chunk.withUnsafeMutableBytes { SSL_read(handle, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                received += chunk[0..<Int(count)]
                continue
            }
            let error = SSL_get_error(handle, count)
            if error == SSL_ERROR_ZERO_RETURN { break }
            // A server that closes without close_notify after a complete answer (common for HTTP/1.0) ends it too.
            if error == SSL_ERROR_SYSCALL, ERR_peek_error() == 0, errno == 0 { break }
            if error == SSL_ERROR_SSL, ERR_GET_REASON(ERR_peek_error()) == SSL_R_UNEXPECTED_EOF_WHILE_READING {
                OpenSSLErrorQueue.clear()
                break
            }
            try wait(after: count, socket: socket, until: deadline)
        }
        OpenSSLErrorQueue.clear()
        return Array(received.prefix(limit + 1))
    }

    /// Waits as `SSL_get_error` says after a call returned `status`, or throws its error.
    private func wait(after status: Int32, socket: TCPConnection, until deadline: ContinuousClock.Instant)
        throws(TLSConnectError)
    {
        switch SSL_get_error(handle, status) {
        case SSL_ERROR_WANT_READ: try socket.wait(forWriting: false, until: deadline)
        case SSL_ERROR_WANT_WRITE: try socket.wait(forWriting: true, until: deadline)
        case SSL_ERROR_SYSCALL where ERR_peek_error() == 0:
            let number = errno
            throw .network(number == 0 ? "the server closed the connection" : String(cString: strerror(number)))
        default:
            throw .network(OpenSSLErrorQueue.error("TLS").message)
        }
    }
}
