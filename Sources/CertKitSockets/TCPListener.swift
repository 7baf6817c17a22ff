internal import Glibc

/// Owns one listening TCP socket on 127.0.0.1 (a socket descriptor); closes it exactly once in `deinit`.
///
/// For loopback TLS servers (the client-trust sample and its tests), package access only: certkit is not a
/// server library.
package final class TCPListener {
    /// The listening descriptor; valid for the lifetime of this object.
    package let descriptor: Int32
    /// The bound port.
    package let port: UInt16

    /// Binds 127.0.0.1:`port` (0 picks a free port) and listens.
    package init(port: UInt16) throws(TLSConnectError) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .network(String(cString: strerror(errno))) }
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .network("cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: actual.sin_port)
    }

    deinit { close(descriptor) }

    /// Accepts the next client before `deadline`, as a non-blocking connection.
    /// - Throws: ``TLSConnectError/timeout`` when no client comes in time.
    package func accept(until deadline: ContinuousClock.Instant) throws(TLSConnectError) -> TCPConnection {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw .timeout }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready < 0, errno != EINTR { throw .network(String(cString: strerror(errno))) }
            guard ready > 0 else { continue }
            let client = Glibc.accept(descriptor, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                return TCPConnection(adopting: client)
            }
            if errno != EINTR, errno != EAGAIN, errno != ECONNABORTED { throw .network(String(cString: strerror(errno))) }
        }
    }
}
