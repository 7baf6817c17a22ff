import CertKitTestSupport
import Foundation
import Glibc
import Testing

/// Runs the built `Samples/PinnedClient` executable against a local `openssl s_server`.
@Suite(.serialized)
struct ConnectPinnedClientTests {
    private func runPinnedClient(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let executable = try #require(
            FixtureLocator.product("PinnedClient"), "PinnedClient not built: run 'swift build' first")
        let result = try ProcessRunner.run(
            [executable] + arguments, output: .merged, currentDirectory: FixtureLocator.packageRoot.path)
        return (result.status, result.stdoutText)
    }

    @Test("--identity: presents the PKCS#12 identity to a server that requires one; refused without it")
    func identity() throws {
        let server = try TLSTestServer(
            .openssl, certificate: FixtureLocator.sample("server.pem"),
            key: FixtureLocator.sample("server.key"), chain: [FixtureLocator.sample("intermediate-ca.pem")],
            clientCA: IdentityPaths.fixture("client-root-ca.pem"))
        defer { server.stop() }
        setenv("CERTKIT_TEST_PINNED_P12", IdentityPaths.password, 1)
        let url = "https://127.0.0.1:\(server.port)/"
        let presented = try runPinnedClient([
            "--timeout", "5", "--identity", IdentityPaths.fixture("client.p12"), "--password-env", "CERTKIT_TEST_PINNED_P12", url,
        ])
        #expect(presented.status == 0, "\(presented.output)")
        let missing = try runPinnedClient(["--timeout", "5", url])
        #expect(missing.status == 2, "\(missing.output)")
        #expect(missing.output.contains("requires a client certificate"), "\(missing.output)")
    }

    @Test("the bundled root trusts the demo server: useCredential, exit 0")
    func trustedServer() throws {
        let server = try TLSTestServer(
            .openssl, certificate: FixtureLocator.sample("server.pem"),
            key: FixtureLocator.sample("server.key"), chain: [FixtureLocator.sample("intermediate-ca.pem")])
        defer { server.stop() }
        let run = try runPinnedClient(["--timeout", "5", "https://127.0.0.1:\(server.port)/"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("the server presented 2 certificate(s)"), "\(run.output)")
        #expect(run.output.contains("decision: useCredential"), "\(run.output)")
        #expect(run.output.contains("why: trusted (unspecified)"), "\(run.output)")
    }

    @Test("a self-signed server is refused with the reason: cancelAuthenticationChallenge, exit 1")
    func untrustedServer() throws {
        let server = try TLSTestServer(
            .openssl, certificate: FixtureLocator.sample("self-signed.pem"),
            key: FixtureLocator.sample("self-signed.key"))
        defer { server.stop() }
        let run = try runPinnedClient([
            "--anchor", FixtureLocator.sample("root-ca.pem"), "--timeout", "5",
            "https://127.0.0.1:\(server.port)/index.html",
        ])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("decision: cancelAuthenticationChallenge"), "\(run.output)")
        #expect(run.output.contains("why: recoverableTrustFailure: errSecNotTrusted (-67843)"), "\(run.output)")
    }

    @Test("usage and connection errors: exit 2 with one line")
    func errors() throws {
        let usage = try runPinnedClient(["http://127.0.0.1/"])
        #expect(usage.status == 2)
        #expect(usage.output.hasPrefix("PinnedClient: 'http://127.0.0.1/' is not an https:// URL"), "\(usage.output)")
        let port = try LoopbackPort.free()
        let refused = try runPinnedClient(["https://127.0.0.1:\(port)/"])
        #expect(refused.status == 2)
        #expect(refused.output == "PinnedClient: 127.0.0.1:\(port): connection refused\n", "\(refused.output)")
    }
}
