import Dispatch
import Foundation
import Glibc

/// A small HTTP/1.0 server on 127.0.0.1 for the network tests: it answers each path from a table and records
/// every connection it accepts (so a test can prove that none was made). It serves until `stop()` or deinit.
///
/// `@unchecked Sendable`: the mutable state (routes, counters, held connections) is guarded by `lock`; the
/// listener is a constant.
final class LoopbackHTTPServer: @unchecked Sendable {
    /// How a path is answered.
    enum Reply {
        /// 200 with the body, and `Cache-Control: max-age=N` when given.
        case body([UInt8], maxAge: Int? = nil)
        /// These bytes as the whole response (not HTTP, a bad status line ...).
        case raw([UInt8])
        /// Read the request, then never answer (the client must time out).
        case silent
    }

    let listener: LoopbackListener
    var port: UInt16 { listener.port }
    private let lock = NSLock()
    private var routes: [String: Reply]
    private var accepted = 0
    private var paths: [String] = []
    private var held: [Int32] = []
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    init(routes: [String: Reply] = [:]) throws {
        self.routes = routes
        listener = try LoopbackListener(port: 0, backlog: 16)
        Thread.detachNewThread { [self] in serve() }
    }

    deinit { stop() }

    /// The base URL, `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(port)" }

    /// Sets the reply for `path`.
    func route(_ path: String, _ reply: Reply) { lock.withLock { routes[path] = reply } }

    /// How many connections were accepted so far.
    var connections: Int { lock.withLock { accepted } }
    /// The paths requested so far, in order.
    var requestedPaths: [String] { lock.withLock { paths } }

    /// Stops serving and closes every connection still open (waits for the serving thread).
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        _ = finished.wait(timeout: .now() + 5)
        lock.withLock { for descriptor in held { close(descriptor) } }
    }

    private func serve() {
        defer { finished.signal() }
        while !lock.withLock({ stopped }) {
            var entry = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let client = accept(listener.descriptor, nil, nil)
            guard client >= 0 else { continue }
            let path = Self.readRequestPath(client)
            let reply = lock.withLock { () -> Reply? in
                accepted += 1
                paths.append(path)
                return routes[path]
            }
            switch reply {
            case .silent?:
                lock.withLock { held.append(client) }
                continue
            case .raw(let bytes)?:
                Self.send(bytes, to: client)
            case .body(let body, let maxAge)?:
                var head = "HTTP/1.0 200 OK\r\nContent-Type: application/pkix-cert\r\nContent-Length: \(body.count)\r\n"
                if let maxAge { head += "Cache-Control: max-age=\(maxAge)\r\n" }
                Self.send(Array((head + "\r\n").utf8) + body, to: client)
            case nil:
                Self.send(Array("HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8), to: client)
            }
            close(client)
        }
    }

    /// The path of the request line, read within two seconds ("" when none came).
    private static func readRequestPath(_ client: Int32) -> String {
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline, request.count < 65_536 {
            var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            request += chunk[0..<count]
            if String(decoding: request, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let line = String(decoding: request, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : ""
    }

    private static func send(_ bytes: [UInt8], to client: Int32) {
        _ = bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
