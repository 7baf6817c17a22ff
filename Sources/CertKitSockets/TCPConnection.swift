internal import Glibc

/// Owns one connected, non-blocking TCP connection (a socket descriptor); closes it exactly once in `deinit`.
///
/// Plain TCP, no TLS: the OpenSSL and GnuTLS TLS clients run their handshakes over it (package access only).
/// Sockets are not a cryptographic library's business, and one copy is easier to keep right than two.
///
/// Connecting resolves the host with `getaddrinfo`, tries each address with a non-blocking `connect` and waits
/// with `poll`, so the whole attempt is bounded by the deadline.
package final class TCPConnection {
    /// The file descriptor; valid for the lifetime of this object.
    package let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Takes ownership of a connected, non-blocking socket (one accepted by ``TCPListener``).
    package convenience init(adopting descriptor: Int32) { self.init(descriptor: descriptor) }

    deinit { close(descriptor) }

    /// Connects to `host:port` before `deadline`.
    /// - Throws: ``TLSConnectError/unresolvable(_:)``, ``TLSConnectError/refused``,
    ///   ``TLSConnectError/timeout`` or ``TLSConnectError/network(_:)``.
    package static func connect(host: String, port: UInt16, deadline: ContinuousClock.Instant) throws(TLSConnectError)
        -> TCPConnection
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .unresolvable(status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }

        var lastError: TLSConnectError = .network("no usable address")
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            do {
                return try connect(entry.pointee, deadline: deadline)
            } catch .timeout {
                throw .timeout
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    private static func connect(_ address: addrinfo, deadline: ContinuousClock.Instant) throws(TLSConnectError)
        -> TCPConnection
    {
        let descriptor = socket(address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), address.ai_protocol)
        guard descriptor >= 0 else { throw .network(String(cString: strerror(errno))) }
        let connection = TCPConnection(descriptor: descriptor)
        if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return connection }
        guard errno == EINPROGRESS || errno == EINTR else { throw error(errno) }
        try connection.wait(forWriting: true, until: deadline)
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &length) == 0 else {
            throw error(errno)
        }
        guard pending == 0 else { throw error(pending) }
        return connection
    }

    /// Waits until the socket is readable (or writable) or `deadline` passes.
    /// - Throws: ``TLSConnectError/timeout`` when the deadline passes first.
    package func wait(forWriting: Bool, until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw .timeout }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var entry = pollfd(fd: descriptor, events: Int16(forWriting ? POLLOUT : POLLIN), revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw Self.error(errno) }
        }
    }

    /// The connect error for a system error number.
    private static func error(_ number: Int32) -> TLSConnectError {
        switch number {
        case ECONNREFUSED: .refused
        case ETIMEDOUT: .timeout
        default: .network(String(cString: strerror(number)))
        }
    }
}
