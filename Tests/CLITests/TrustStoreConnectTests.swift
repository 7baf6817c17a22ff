import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// The seeds' flow, end to end: a CA's root certificate downloaded from a loopback HTTP server with
/// `certkit trust add URL --sha256 …`, then `certkit connect --trust-store` to TLS servers under that root.
@Suite("trust store: download, then connect", .serialized)
struct TrustStoreConnectTests {
    private static func sample(_ name: String) -> String { FixtureLocator.sample(name) }

    private static func rootDER() throws -> [UInt8] {
        try CertificateBundle.decode(try FixtureLocator.bytes(sample("root-ca.pem"))).certificates[0].derEncoded
    }

    @Test("download with --sha256 (a mismatch refused), then proceed; deny on the intermediate; scoped settings",
          arguments: TLSTestServer.Kind.allCases)
    func seedsFlow(kind: TLSTestServer.Kind) throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        let der = try Self.rootDER()
        let digest = try TrustFixtures.sha256(Self.sample("root-ca.pem"))
        let http = try LoopbackHTTPServer(routes: [
            "/root.der": .body(der), "/root.pem": .body(Array(PEM.encode(der).utf8)),
            "/redirect/root.pem": .raw(Array("HTTP/1.0 302 Found\r\nLocation: /root.pem\r\n\r\n".utf8)),
        ])
        defer { http.stop() }
        let base = http.base

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
