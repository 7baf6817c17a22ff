import CertKitTestSupport
import Dispatch
import Foundation
import Glibc

/// The loopback address shared by the connect tests. Every server listens on 127.0.0.1 only (gnutls-serv has no
/// bind option; the tests connect only to 127.0.0.1).
enum ConnectTestEnvironment {
    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

struct TestServerError: Error, CustomStringConvertible {
    var description: String
}

/// A listening TCP socket on 127.0.0.1 owned by the test; closed in `deinit`.
///
/// `@unchecked Sendable` is safe: both properties are constants set in `init`, and the descriptor is closed only
/// in `deinit`, after the last thread that accepts on it has let go of the listener.
final class LoopbackListener: @unchecked Sendable {
    /// The listening descriptor.
    let descriptor: Int32
    /// The port it is bound to.
    let port: UInt16

    /// Binds 127.0.0.1:`port` (0 picks a free port) and listens.
    init(port: UInt16, backlog: Int32) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestServerError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = ConnectTestEnvironment.loopback(port: port)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw TestServerError(description: "bind/listen 127.0.0.1:\(port): \(reason)")
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
}

/// A server that accepts TCP connections and never says anything (the handshake must time out).
/// The kernel completes the TCP handshake from the backlog; nothing ever calls `accept`.
final class SilentServer {
    let listener: LoopbackListener
    var port: UInt16 { listener.port }

    init() throws { listener = try LoopbackListener(port: 0, backlog: 8) }
}

/// A thread that accepts up to `connections` clients on a fresh 127.0.0.1 listener, hands each to `handle` and
/// closes it; it stops after the last client or after `seconds`, whichever comes first.
final class LoopbackAcceptLoop {
    let listener: LoopbackListener
    private let finished = DispatchSemaphore(value: 0)
    private let seconds: Double
    private var isFinished = false
    var port: UInt16 { listener.port }

    init(connections: Int, seconds: Double, handle: @escaping @Sendable (_ client: Int32) -> Void) throws {
        listener = try LoopbackListener(port: 0, backlog: 8)
        self.seconds = seconds
        let descriptor = listener.descriptor
        let finished = finished
        Thread.detachNewThread {
            defer { finished.signal() }
            let deadline = Date().addingTimeInterval(seconds)
            var served = 0
            while served < connections, Date() < deadline {
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 200) > 0 else { continue }
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { continue }
                served += 1
                handle(client)
                close(client)
            }
        }
    }

    /// Waits (at most `seconds` + 5) for the serving thread to end, so the listener closes after it.
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        _ = finished.wait(timeout: .now() + seconds + 5)
    }

    deinit { finish() }
}

/// A plain-TCP server that answers each of up to `connections` clients with `reply` and closes: a peer that
/// does not speak TLS. Its thread stops after the last client or after 15 seconds, whichever comes first.
final class GarbageServer {
    private let loop: LoopbackAcceptLoop
    var port: UInt16 { loop.port }

    init(reply: String, connections: Int) throws {
        let bytes = Array(reply.utf8)
        loop = try LoopbackAcceptLoop(connections: connections, seconds: 15) { client in
            _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Waits for the serving thread to end.
    func finish() { loop.finish() }
}

/// A real TLS server process (`openssl s_server` or `gnutls-serv`) on a free port of 127.0.0.1, started and
/// polled until it accepts, and always stopped: SIGTERM, a bounded wait, then SIGKILL.
final class TLSTestServer {
    /// The server program.
    enum Kind: String, CaseIterable, CustomStringConvertible, Sendable {
        case openssl = "openssl s_server"
        case gnutls = "gnutls-serv"

        var description: String { rawValue }
    }

    let kind: Kind
    private let server: LoopbackServer
    private let temporaryFiles: TemporaryDirectory
    var port: UInt16 { server.port }

    /// Serves `certificate` (leaf PEM) with `key`, followed by the PEM certificates in `chain` (sent after the
    /// leaf). Retries on a new port when the chosen one is taken meanwhile. With `clientCA` the server requires a
    /// client certificate that chains to it (`-Verify -verify_return_error -CAfile`, `--require-client-cert
    /// --verify-client-cert --x509cafile`); `tls12` limits it to TLS 1.2; `extraArguments` are appended (e.g. a stapled
    /// OCSP response). `closesAfterHandshake` (`openssl s_server` only) replaces `-www -quiet` with `-brief`: with
    /// standard input at end of file, the server ends each connection cleanly (session tickets under TLS 1.3, then
    /// close_notify) as soon as its handshake completes.
    init(
        _ kind: Kind, certificate: String, key: String, chain: [String] = [], clientCA: String? = nil,
        tls12: Bool = false, closesAfterHandshake: Bool = false, extraArguments: [String] = []
    ) throws {
        precondition(!closesAfterHandshake || kind == .openssl, "only openssl s_server closes after the handshake")
        self.kind = kind
        let files = try TemporaryDirectory(prefix: "certkit-connect")
        temporaryFiles = files
        server = try LoopbackServer(kind.rawValue) { port in
            try Self.arguments(kind, port: port, certificate: certificate, key: key, chain: chain, files: files)
                .filter { clientCA == nil || $0 != "--disable-client-cert" }
                .filter { !closesAfterHandshake || !["-www", "-quiet"].contains($0) }
                + (closesAfterHandshake ? ["-brief"] : [])
                + Self.clientCertificateArguments(kind, clientCA: clientCA, tls12: tls12) + extraArguments
        }
    }

    /// Stops the server now (also done when it is released).
    func stop() { server.stop() }

    private static func clientCertificateArguments(_ kind: Kind, clientCA: String?, tls12: Bool) -> [String] {
        switch kind {
        case .openssl:
            (clientCA.map { ["-Verify", "5", "-verify_return_error", "-CAfile", $0] } ?? []) + (tls12 ? ["-tls1_2"] : [])
        case .gnutls:
            (clientCA.map { ["--require-client-cert", "--verify-client-cert", "--x509cafile", $0] } ?? [])
                + (tls12 ? ["--priority", "NORMAL:-VERS-TLS1.3"] : [])
        }
    }

    private static func arguments(
        _ kind: Kind, port: UInt16, certificate: String, key: String, chain: [String], files: TemporaryDirectory
    ) throws -> [String] {
        switch kind {
        case .openssl:
            var arguments = [
                "openssl", "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key,
                "-no-CAfile", "-no-CApath", "-no-CAstore", "-www", "-quiet",
            ]
            if !chain.isEmpty {
                arguments += ["-cert_chain", try concatenated([], chain, name: "chain-\(port).pem", in: files)]
            }
            return arguments
        case .gnutls:
            return [
                "gnutls-serv", "-p", "\(port)", "--x509certfile",
                try concatenated([certificate], chain, name: "certs-\(port).pem", in: files), "--x509keyfile", key,
                "--disable-client-cert", "--http",
            ]
        }
    }

    /// Writes the PEM files one after the other into `name` in `files` and returns its path.
    private static func concatenated(_ first: [String], _ rest: [String], name: String, in files: TemporaryDirectory)
        throws -> String
    {
        var text = ""
        for path in first + rest { text += try String(contentsOfFile: path, encoding: .utf8) }
        return try files.write(name, Array(text.utf8))
    }
}
