import CertKit
internal import Glibc

extension TCPConnection {
    /// Sends all of `bytes` before `deadline`.
    /// - Throws: ``TLSConnectError/timeout`` or ``TLSConnectError/network(_:)``.
    package func send(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count >= 0 {
                sent += count
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try wait(forWriting: true, until: deadline)
            } else {
                throw .network(String(cString: strerror(errno)))
            }
        }
    }

    /// Reads until the peer closes the connection, before `deadline`; stops after `limit + 1` bytes so the
    /// caller can tell the response was too large.
    /// - Throws: ``TLSConnectError/timeout`` or ``TLSConnectError/network(_:)``.
    package func receiveAll(limit: Int, until deadline: ContinuousClock.Instant) throws(TLSConnectError) -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while received.count <= limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += chunk[0..<count]
            } else if count == 0 {
                return received
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try wait(forWriting: false, until: deadline)
            } else if errno == ECONNRESET {
                throw .network("connection reset by peer")
            } else {
                throw .network(String(cString: strerror(errno)))
            }
        }
        return Array(received.prefix(limit + 1))
    }
}

/// One request over plain TCP: connect, send, read the whole answer until the peer closes (`http://`).
package enum PlainExchange {
    /// Sends `request` to `host:port` and returns everything the peer sends back (at most `limit + 1` bytes),
    /// all before `deadline`.
    package static func exchange(
        host: String, port: UInt16, request: [UInt8], limit: Int, deadline: ContinuousClock.Instant
    ) throws(TLSConnectError) -> [UInt8] {
        let socket = try TCPConnection.connect(host: host, port: port, deadline: deadline)
        try socket.send(request, until: deadline)
        return try socket.receiveAll(limit: limit, until: deadline)
    }
}
