import CertKit
import Dispatch
import Foundation
import Glibc
import Testing

/// A minimal HTTP/1.0 server on 127.0.0.1 for the download tests: answers `GET /<name>` with the bytes registered
/// for that name (200), anything else with 404, and `/redirect/<name>` with a 302 to `/<name>`. Its thread stops
/// after `connections` requests or 30 seconds.
final class HTTPFileServer {
    private let loop: LoopbackAcceptLoop
    var port: UInt16 { loop.port }

    init(files: [String: [UInt8]], connections: Int) throws {
        loop = try LoopbackAcceptLoop(connections: connections, seconds: 30) { client in Self.serve(client, files: files) }
    }

    private static func serve(_ client: Int32, files: [String: [UInt8]]) {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
            var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 5_000) > 0 else { return }
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            request += buffer[0..<count]
        }
        let line = String(decoding: request, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        var response: [UInt8]
        if path.hasPrefix("/redirect/") {
            response = Array("HTTP/1.0 302 Found\r\nLocation: /\(path.dropFirst("/redirect/".count))\r\n\r\n".utf8)
        } else if let body = files[String(path.dropFirst())] {
            response = Array("HTTP/1.0 200 OK\r\nContent-Type: application/pkix-cert\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        } else {
            response = Array("HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8)
        }
        var sent = 0
        while sent < response.count {
            let count = response.withUnsafeBytes { send(client, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Waits (at most 35 seconds) for the serving thread to end.
    func finish() { loop.finish() }
}

/// The seeds' flow, end to end: a CA's root certificate downloaded from a loopback HTTP server with
/// `certkit trust add URL --sha256 …`, then `certkit connect --trust-store` to TLS servers under that root.
@Suite("trust store: download, then connect", .serialized)
struct TrustStoreConnectTests {
    private static func sample(_ name: String) -> String { ConnectTestEnvironment.sample(name) }

    private static func rootDER() throws -> [UInt8] {
        try CertificateBundle.decode(try Paths.bytes(sample("root-ca.pem"))).certificates[0].derEncoded
    }

    @Test("download with --sha256 (a mismatch refused), then proceed; deny on the intermediate; scoped settings",
          arguments: TLSTestServer.Kind.allCases)
    func seedsFlow(kind: TLSTestServer.Kind) throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        let der = try Self.rootDER()
        let digest = try TrustFixtures.sha256(Self.sample("root-ca.pem"))
        let http = try HTTPFileServer(files: ["root.der": der, "root.pem": Array(PEM.encode(der).utf8)], connections: 5)
        defer { http.finish() }
        let base = "http://127.0.0.1:\(http.port)"

        // A wrong fingerprint is refused and nothing is stored; a 404 is an input error.
        let wrong = certkit(["trust", "add", "--store", store, "--sha256", String(repeating: "0", count: 64), "\(base)/root.der"])
        #expect(wrong.code == 1)
        #expect(wrong.stderr.hasPrefix("certkit: \(base)/root.der: refused: no certificate has SHA-256 0000"), "\(wrong.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store + "/trust-store.json"))
        let missing = certkit(["trust", "add", "--store", store, "--sha256", digest, "\(base)/nothing.der"])
        #expect(missing.code == 1)
        #expect(missing.stderr == "certkit: \(base)/nothing.der: HTTP 404 Not Found\n")
        // The right one is added (DER here; PEM through a redirect works the same).
        let added = certkit(["trust", "add", "--store", store, "--sha256", digest, "\(base)/root.der"])
        #expect(added.code == 0, "\(added.stderr)")
        #expect(added.stdoutText.hasPrefix("added trustRoot\nCN=certkit Demo Root CA\n  sha256    \(digest)\n"))
        let redirected = certkit(["trust", "add", "--store", store, "--sha256", digest, "\(base)/redirect/root.pem"])
        #expect(redirected.code == 0, "\(redirected.stderr)")

        let server = try TLSTestServer(
            kind, certificate: Self.sample("server.pem"), key: Self.sample("server.key"),
            chain: [Self.sample("intermediate-ca.pem")])
        defer { server.stop() }
        let target = "127.0.0.1:\(server.port)"
        for tls in ConnectCommandTests.handshakeLibraries {
            let trusted = certkitConnect(target, ["--tls", tls, "--trust-store=\(store)"])
            #expect(trusted.status == 0, "\(kind) \(tls): \(trusted.stdout)\(trusted.stderr)")
            #expect(trusted.verdict == "proceed: trusted", "\(kind) \(tls)")
            // Without the store the root is unknown.
            #expect(certkitConnect(target, ["--tls", tls, "--system-roots"]).status != 0)
        }

        // A deny setting on the intermediate turns it into deny.
        let intermediate = Self.sample("intermediate-ca.pem")
        #expect(certkit(["trust", "add", "--store", store, "--result", "deny", intermediate]).code == 0)
        for tls in ConnectCommandTests.handshakeLibraries {
            let denied = certkitConnect(target, ["--tls", tls, "--trust-store=\(store)", "--backend", "both"])
            #expect(denied.status == 12, "\(kind) \(tls): \(denied.stdout)")
            #expect(denied.verdict.hasPrefix("deny: errSecTrustSettingDeny (-67654)"))
        }
        #expect(certkit(["trust", "remove", "--store", store, intermediate]).code == 0)

        // A setting scoped to a policy and host applies only to that policy and host.
        #expect(certkit(["trust", "remove", "--store", store, digest]).code == 0)
        #expect(certkit(["trust", "add", "--store", store, "--policy", "ssl-server", "--host", "localhost", Self.sample("root-ca.pem")]).code == 0)
        for tls in ConnectCommandTests.handshakeLibraries {
            let named = certkitConnect(target, ["--tls", tls, "--trust-store=\(store)", "--host", "localhost", "--backend", "both"])
            #expect(named.verdict == "proceed: trusted", "\(kind) \(tls): \(named.stdout)")
            let byAddress = certkitConnect(target, ["--tls", tls, "--trust-store=\(store)", "--backend", "both"])
            #expect(byAddress.status == 10, "\(kind) \(tls): the setting names localhost, not 127.0.0.1")
            #expect(byAddress.verdict.hasPrefix("recoverableTrustFailure: errSecNotTrusted"), "\(byAddress.verdict)")
            let basic = certkitConnect(target, ["--tls", tls, "--trust-store=\(store)", "--policy", "basic"])
            #expect(basic.status == 10, "\(kind) \(tls): an ssl-server setting does not apply to the basic policy")
        }
    }
}
