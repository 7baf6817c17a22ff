import Foundation
import Testing

/// Mutual TLS in both directions: the `ClientTrustServer` sample (an OpenSSL or a GnuTLS server; certkit's
/// ClientTrust decides on the client) against `certkit connect` with either TLS library (certkit decides on the
/// server): a good client is served and trusts the server, an expired or wrong-EKU client certificate and a missing
/// one are refused, and the server names the failed checks.
@Suite(.serialized)
struct ClientTrustServerTests {
    static let libraries = ["openssl", "gnutls"]

    static var executable: URL { ConnectPinnedClientTests.executable.deletingLastPathComponent().appendingPathComponent("ClientTrustServer") }

    @Test("good client served; expired, wrong EKU and missing certificates refused with their check names",
          arguments: libraries)
    func roundTrip(serverTLS: String) throws {
        let executable = Self.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "ClientTrustServer not built")
        let port = try ConnectTestEnvironment.freePort()
        let clients: [(arguments: [String], trusted: Bool)] = [
            (["--identity", IdentityPaths.fixture("client.p12"), "--password-file", IdentityPaths.passwordFile], true),
            (["--cert", IdentityPaths.fixture("client-expired-chain.pem"), "--key", IdentityPaths.fixture("client.key")], false),
            (["--cert", IdentityPaths.fixture("client-server-eku-chain.pem"), "--key", IdentityPaths.fixture("client.key")], false),
            ([], false),
        ]
        let libraries = Self.libraries
        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "--anchor", IdentityPaths.fixture("client-root-ca.pem"), "--cert", Paths.sample("server-chain.pem"),
            "--key", Paths.sample("server.key"), "--port", "\(port)", "--connections", "\(clients.count * libraries.count)",
            "--timeout", "20", "--tls", serverTLS,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The server says "listening on ..." once it listens (no probe connection: it would count as a client).
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            first += chunk
        }
        try #require(String(decoding: first, as: UTF8.self).hasPrefix("listening on 127.0.0.1:\(port)"))

        for tls in libraries {
            for client in clients {
                let run = certkitConnect("127.0.0.1:\(port)", ["--tls", tls, "--anchors", Paths.sample("root-ca.pem")] + client.arguments)
                if client.trusted {
                    #expect(run.status == 0, "\(tls) \(client.arguments): \(run.stdout)\(run.stderr)")
                    #expect(run.verdict == "unspecified: trusted", "\(serverTLS) server, \(tls) client")
                } else {
                    #expect(run.status == 1, "\(serverTLS) server, \(tls) client \(client.arguments): \(run.stdout)\(run.stderr)")
                    #expect(run.stderr.contains("client certificate"), "\(tls): \(run.stderr)")
                }
            }
        }
        let data = first + output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        let served = lines.filter { $0.hasPrefix("client ") }
        #expect(served.filter { $0.contains(": trusted: CN=alice (unspecified)") }.count == 2, "\(lines)")
        #expect(served.filter { $0.contains("refused: CN=alice: recoverableTrustFailure") && $0.hasSuffix("[0] TemporalValidity") }.count == 2, "\(lines)")
        #expect(served.filter { $0.contains("refused: CN=alice") && $0.contains("[0] ExtendedKeyUsage") }.count == 2, "\(lines)")
        #expect(served.filter { $0.contains("refused: no certificate") }.count == 2, "\(lines)")
        #expect(served.count == clients.count * libraries.count)
    }
}
