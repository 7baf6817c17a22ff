import Glibc

/// A TCP relay on 127.0.0.1 in front of a TLS 1.3 server that hides the server's verdict on a client certificate.
///
/// It forwards the handshake both ways; once the client has sent an encrypted record (type 23: its Certificate,
/// CertificateVerify and Finished), it forwards nothing more from the server, so the client never sees a session
/// ticket, data, an alert or close_notify. When the server closes, the relay ends the client's connection with a
/// bare TCP close (FIN) or, with `reset`, a TCP reset (`SO_LINGER` 0). Serves up to `connections` clients, one at a
/// time, for at most 20 seconds.
final class TruncatingRelay {
    private let loop: LoopbackAcceptLoop
    var port: UInt16 { loop.port }

    init(to serverPort: UInt16, reset: Bool, connections: Int) throws {
        loop = try LoopbackAcceptLoop(connections: connections, seconds: 20) { client in
            Self.relay(client: client, serverPort: serverPort, reset: reset)
        }
    }

    /// Waits for the serving thread to end.
    func finish() { loop.finish() }

    private static func relay(client: Int32, serverPort: UInt16, reset: Bool) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard server >= 0 else { return }
        defer { close(server) }
        var address = ConnectTestEnvironment.loopback(port: serverPort)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return }
        var records = RecordScanner()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            var entries = [pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
            guard poll(&entries, 2, 10_000) > 0 else { return }
            if entries[0].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                records.scan(buffer[0..<count])
                guard send(server, buffer, count, Int32(MSG_NOSIGNAL)) == count else { return }
            }
            if entries[1].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { recv(server, $0.baseAddress, $0.count, 0) }
                guard count > 0 else {
                    if reset {
                        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                        setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                    }
                    return
                }
                if !records.sawEncryptedRecord {
                    guard send(client, buffer, count, Int32(MSG_NOSIGNAL)) == count else { return }
                }
            }
        }
    }
}

/// Follows the TLS record headers of one direction of a connection.
private struct RecordScanner {
    private var header: [UInt8] = []
    private var remaining = 0
    /// True once a record of type 23 (application_data, every encrypted TLS 1.3 record) went by.
    private(set) var sawEncryptedRecord = false

    mutating func scan(_ bytes: ArraySlice<UInt8>) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if remaining > 0 {
                let skipped = min(remaining, bytes.endIndex - index)
                remaining -= skipped
                index += skipped
                continue
            }
            header.append(bytes[index])
            index += 1
            if header.count == 5 {
                if header[0] == 23 { sawEncryptedRecord = true }
                remaining = Int(header[3]) << 8 | Int(header[4])
                header = []
            }
        }
    }
}
