import Dispatch
import Foundation
import Glibc

/// A small HTTP/1.0 server on 127.0.0.1 for the network and download tests: it answers each path from a table (a
/// key ending in `*` answers every path with that prefix) and records every connection it accepts (so a test can
/// prove that none was made). It serves until `stop()` or deinit.
///
/// The serving thread holds only the listener and the shared ``State`` (never the server), so releasing the server
/// stops it. `@unchecked Sendable`: the mutable state is guarded by its lock; the rest are constants.
final class LoopbackHTTPServer: @unchecked Sendable {
    /// How a path is answered.
    enum Reply {
        /// 200 with the body, and `Cache-Control: max-age=N` when given.
        case body([UInt8], maxAge: Int? = nil)
        /// These bytes as the whole response (not HTTP, a bad status line ...).
        case raw([UInt8])
        /// Read the request, then never answer (the client must time out).
        case silent
        /// Read the request, then send a 200 head announcing a large body and one byte of it every 100 ms until
        /// the server stops (the client's deadline, not an idle timeout, must end the fetch).
        case trickle
    }

    /// What the server and its thread share, behind `lock`.
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var routes: [String: Reply]
        var accepted = 0
        var paths: [String] = []
        var held: [Int32] = []
        var stopped = false

        init(routes: [String: Reply]) { self.routes = routes }
    }

    let listener: LoopbackListener
    var port: UInt16 { listener.port }
    private let state: State
    private let finished = DispatchSemaphore(value: 0)

    init(routes: [String: Reply] = [:]) throws {
        state = State(routes: routes)
        listener = try LoopbackListener(port: 0, backlog: 16)
        Thread.detachNewThread { [state, listener, finished] in
            Self.serve(state: state, listener: listener)
            finished.signal()
        }
    }

    deinit { stop() }

    /// The base URL, `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(port)" }

    /// Sets the reply for `path` (with a final `*`: for every path that starts with the rest).
    func route(_ path: String, _ reply: Reply) { state.lock.withLock { state.routes[path] = reply } }

    /// How many connections were accepted so far.
    var connections: Int { state.lock.withLock { state.accepted } }
    /// The paths requested so far, in order.
    var requestedPaths: [String] { state.lock.withLock { state.paths } }

    /// Stops serving and closes every connection still open (waits for the serving thread).
    func stop() {
        let first = state.lock.withLock { () -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        _ = finished.wait(timeout: .now() + 5)
        state.lock.withLock { for descriptor in state.held { close(descriptor) } }
    }

    private static func serve(state: State, listener: LoopbackListener) {
        while !state.lock.withLock({ state.stopped }) {
            var entry = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let client = accept(listener.descriptor, nil, nil)
            guard client >= 0 else { continue }
            let path = readRequestPath(client)
            let reply = state.lock.withLock { () -> Reply? in
                state.accepted += 1
                state.paths.append(path)
                // A route ending in `*` answers every path it prefixes (an OCSP GET carries its request in the path).
                return state.routes[path] ?? state.routes.first { route, _ in
                    route.hasSuffix("*") && path.hasPrefix(route.dropLast())
                }?.value
            }
            switch reply {
            case .silent?:
                state.lock.withLock { state.held.append(client) }
                continue
            case .trickle?:
                Thread.detachNewThread { trickle(to: client, state: state) }
                continue
            case .raw(let bytes)?:
                send(bytes, to: client)
            case .body(let body, let maxAge)?:
                var head = "HTTP/1.0 200 OK\r\nContent-Type: application/pkix-cert\r\nContent-Length: \(body.count)\r\n"
                if let maxAge { head += "Cache-Control: max-age=\(maxAge)\r\n" }
                send(Array((head + "\r\n").utf8) + body, to: client)
            case nil:
                send(Array("HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8), to: client)
            }
            close(client)
        }
    }

    /// Sends a head and then a byte every 100 ms until the server stops or the client goes; closes the client.
    private static func trickle(to client: Int32, state: State) {
        defer { close(client) }
        guard send(Array("HTTP/1.0 200 OK\r\nContent-Length: 1000000\r\n\r\n".utf8), to: client) else { return }
        while !state.lock.withLock({ state.stopped }), send([0x30], to: client) {
            usleep(100_000)
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

    /// Sends `bytes`; false when the client is gone.
    @discardableResult
    private static func send(_ bytes: [UInt8], to client: Int32) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }
}
