import CertKitTestSupport
import Foundation
import Testing

/// Mutual TLS in both directions: the `ClientTrustServer` sample (an OpenSSL or a GnuTLS server; certkit's
/// ClientTrust decides on the client) against `certkit connect` with either TLS library (certkit decides on the
/// server): a good client is served and trusts the server, an expired or wrong-EKU client certificate and a missing
/// one are refused, and the server names the failed checks. Then the same server against other programs' clients
/// held to TLS 1.2, where the verdict is part of the handshake.
@Suite(.serialized)
struct ClientTrustServerTests {
    static let libraries = ["openssl", "gnutls"]

    @Test("good client served; expired, wrong EKU and missing certificates refused with their check names",
          arguments: libraries)
    func roundTrip(serverTLS: String) throws {
        let clients: [(arguments: [String], trusted: Bool)] = [
            (["--identity", IdentityPaths.fixture("client.p12"), "--password-file", IdentityPaths.passwordFile], true),
            (["--cert", IdentityPaths.fixture("client-expired-chain.pem"), "--key", IdentityPaths.fixture("client.key")], false),
            (["--cert", IdentityPaths.fixture("client-server-eku-chain.pem"), "--key", IdentityPaths.fixture("client.key")], false),
            ([], false),
        ]
        let libraries = Self.libraries
        let server = try SampleServer(tls: serverTLS, connections: clients.count * libraries.count)
        for tls in libraries {
            for client in clients {
                let run = certkitConnect(
                    "127.0.0.1:\(server.port)", ["--tls", tls, "--anchors", FixtureLocator.sample("root-ca.pem")] + client.arguments)
                if client.trusted {
                    #expect(run.status == 0, "\(tls) \(client.arguments): \(run.stdout)\(run.stderr)")
                    #expect(run.verdict == "unspecified: trusted", "\(serverTLS) server, \(tls) client")
                } else {
                    #expect(run.status == 1, "\(serverTLS) server, \(tls) client \(client.arguments): \(run.stdout)\(run.stderr)")
                    #expect(run.stderr.contains("client certificate"), "\(tls): \(run.stderr)")
                }
            }
        }
        let lines = server.finish()
        let served = lines.filter { $0.hasPrefix("client ") }
        #expect(served.filter { $0.contains(": trusted: CN=alice (unspecified)") }.count == 2, "\(lines)")
        #expect(served.filter { $0.contains("refused: CN=alice: recoverableTrustFailure") && $0.hasSuffix("[0] TemporalValidity") }.count == 2, "\(lines)")
        #expect(served.filter { $0.contains("refused: CN=alice") && $0.contains("[0] ExtendedKeyUsage") }.count == 2, "\(lines)")
        #expect(served.filter { $0.contains("refused: no certificate") }.count == 2, "\(lines)")
        #expect(served.count == clients.count * libraries.count)
    }

    @Test("TLS 1.2 clients of openssl s_client and gnutls-cli: the good one served, the expired one refused in the handshake",
          arguments: libraries)
    func tls12Clients(serverTLS: String) throws {
        let fixture = IdentityPaths.fixture
        func opensslClient(_ certificate: String, port: UInt16) -> [String] {
            ["openssl", "s_client", "-tls1_2", "-connect", "127.0.0.1:\(port)", "-cert", fixture(certificate),
             "-cert_chain", fixture("client-intermediate-ca.pem"), "-key", fixture("client.key"), "-quiet"]
        }
        func gnutlsClient(_ chain: String, port: UInt16) -> [String] {
            ["gnutls-cli", "--insecure", "--priority", "NORMAL:-VERS-TLS1.3", "--x509certfile", fixture(chain),
             "--x509keyfile", fixture("client.key"), "-p", "\(port)", "127.0.0.1"]
        }
        let server = try SampleServer(tls: serverTLS, connections: 4)
        let runs = [
            (try Self.run(opensslClient("client.pem", port: server.port)), true),
            (try Self.run(opensslClient("client-expired.pem", port: server.port)), false),
            (try Self.run(gnutlsClient("client-chain.pem", port: server.port)), true),
            (try Self.run(gnutlsClient("client-expired-chain.pem", port: server.port)), false),
        ]
        let lines = server.finish()
        let served = lines.filter { $0.hasPrefix("client ") }
        #expect(served.count == 4, "\(lines)")
        for (index, ((status, output), trusted)) in runs.enumerated() where served.count == 4 {
            // The server's reply arrives only after a completed handshake. (The exit status does not say that:
            // gnutls-cli may report the server's close after the reply as an error.)
            let replied = output.split(separator: "\n").contains("trusted")
            if trusted {
                #expect(replied, "\(serverTLS) client \(index + 1): \(output)")
                #expect(served[index].hasSuffix(": trusted: CN=alice (unspecified)"), "\(served[index])")
            } else {
                #expect(status != 0 && !replied, "\(serverTLS) client \(index + 1): a refusal fails the TLS 1.2 handshake")
                #expect(served[index].hasSuffix("[0] TemporalValidity"), "\(served[index])")
            }
        }
    }

    /// Runs a client program with standard input closed (it ends after the handshake) and returns its exit status
    /// and output.
    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ProcessRunner.run(["/usr/bin/env", "timeout", "30"] + arguments, output: .merged)
        return (result.status, result.stdoutText)
    }
}

/// The `ClientTrustServer` sample on a free port of 127.0.0.1, serving `connections` clients on `tls`.
final class SampleServer {
    let port: UInt16
    private let process: RunningProcess

    init(tls: String, connections: Int) throws {
        let executable = try #require(FixtureLocator.product("ClientTrustServer"), "ClientTrustServer not built")
        port = try LoopbackPort.free()
        process = try RunningProcess([
            executable, "--anchor", IdentityPaths.fixture("client-root-ca.pem"), "--cert",
            FixtureLocator.sample("server-chain.pem"), "--key", FixtureLocator.sample("server.key"), "--port", "\(port)",
            "--connections", "\(connections)", "--timeout", "20", "--tls", tls,
        ], output: .merged)
        // The server says "listening on ..." once it listens (no probe connection: it would count as a client).
        _ = process.waitForOutput { $0.contains(UInt8(ascii: "\n")) }
        try #require(String(decoding: process.standardOutput, as: UTF8.self).hasPrefix("listening on 127.0.0.1:\(port)"))
    }

    /// Waits for the server to exit after its last client and returns its output lines.
    func finish() -> [String] {
        process.wait().stdoutText.split(separator: "\n").map(String.init)
    }
}
