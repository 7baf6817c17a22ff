import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// `certkit connect --identity` / `--cert --key` against real `openssl s_server -Verify` and `gnutls-serv
/// --require-client-cert` processes on 127.0.0.1 that require a client certificate from the client fixtures' CA,
/// through both handshake libraries, under TLS 1.3 (the verdict arrives after the handshake) and TLS 1.2.
/// Serialized: each test runs its own servers.
@Suite(.serialized)
struct ConnectIdentityTests {
    struct Setting: CustomStringConvertible, Sendable {
        let kind: TLSTestServer.Kind
        let tls12: Bool
        var description: String { "\(kind)\(tls12 ? " TLS 1.2" : " TLS 1.3")" }
    }

    static let settings = TLSTestServer.Kind.allCases.flatMap { kind in
        [Setting(kind: kind, tls12: false), Setting(kind: kind, tls12: true)]
    }

    private let password = ["--password-file", IdentityPaths.passwordFile]

    private func withMutualTLSServer(_ setting: Setting, _ body: (_ target: String, _ tls: String) throws -> Void) throws {
        let server = try TLSTestServer(
            setting.kind, certificate: FixtureLocator.sample("server.pem"), key: FixtureLocator.sample("server.key"),
            chain: [FixtureLocator.sample("intermediate-ca.pem")], clientCA: IdentityPaths.fixture("client-root-ca.pem"),
            tls12: setting.tls12)
        defer { server.stop() }
        for tls in BackendRegistry.standard.names {
            try body("127.0.0.1:\(server.port)", tls)
        }
    }

    private func anchors(_ tls: String) -> [String] { ["--tls", tls, "--anchors", FixtureLocator.sample("root-ca.pem")] }

    @Test("the right identity is accepted (PKCS#12 and --cert/--key)", arguments: settings)
    func accepted(setting: Setting) throws {
        try withMutualTLSServer(setting) { target, tls in
            let p12 = certkitConnect(target, anchors(tls) + ["--identity", IdentityPaths.fixture("client.p12")] + password)
            #expect(p12.status == 0, "\(setting) \(tls): \(p12.stdout)\(p12.stderr)")
            #expect(p12.verdict == "unspecified: trusted", "\(setting) \(tls)")

            let pem = certkitConnect(target, anchors(tls) + [
                "--cert", IdentityPaths.fixture("client-chain.pem"), "--key", IdentityPaths.fixture("client-encrypted.key"),
            ] + password)
            #expect(pem.status == 0, "\(setting) \(tls): \(pem.stdout)\(pem.stderr)")
        }
    }

    @Test("an identity imported by the other library is presented too", arguments: [settings[0], settings[2]])
    func crossLibraryKey(setting: Setting) throws {
        let bytes = try FixtureLocator.bytes(IdentityPaths.fixture("client.p12"))
        try withMutualTLSServer(setting) { target, tls in
            let port = UInt16(target.split(separator: ":").last!)!
            for importer in BackendRegistry.standard.entries.map({ $0.identityImporter() }) {
                let identity = try importer.importPKCS12(bytes, password: IdentityPaths.password)
                let client = BackendRegistry.standard.entry(named: tls)!.tlsClient()
                let chain = try client.fetchChain(
                    host: "127.0.0.1", port: port, serverName: "localhost", timeout: .seconds(10), identity: identity)
                #expect(chain.count == 2, "\(importer.name) key through \(tls)")
            }
        }
    }

    @Test("a legacy-encrypted PKCS#12: the hint names --tls gnutls, and --tls gnutls presents it", arguments: [settings[0]])
    func legacyIdentity(setting: Setting) throws {
        let legacy = ["--identity", IdentityPaths.fixture("client-legacy.p12")] + password
        try withMutualTLSServer(setting) { target, tls in
            guard tls == "openssl" else { return }
            let refused = certkitConnect(target, anchors("openssl") + legacy)
            #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
            #expect(refused.stderr.contains("legacy RC2-40-CBC"), "\(refused.stderr)")
            #expect(refused.stderr.hasSuffix("(--tls gnutls)\n"), "connect's option, not --backend: \(refused.stderr)")
            #expect(!refused.stderr.contains("--backend"))
            // What the hint says works.
            let presented = certkitConnect(target, anchors("gnutls") + legacy)
            #expect(presented.status == 0, "\(presented.stdout)\(presented.stderr)")
            #expect(presented.verdict == "unspecified: trusted")
        }
    }

    @Test("no identity: refused, exit 1, one line that says what to give", arguments: settings)
    func missingIdentity(setting: Setting) throws {
        try withMutualTLSServer(setting) { target, tls in
            let run = certkitConnect(target, anchors(tls))
            #expect(run.status == 1, "\(setting) \(tls): \(run.stdout)\(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("requires a client certificate and none was presented"), "\(setting) \(tls): \(run.stderr)")
            #expect(run.stderr.contains("--identity FILE.p12"))
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test("an identity from another CA: refused, exit 1, the same line from both libraries", arguments: settings)
    func wrongCA(setting: Setting) throws {
        var lines: Set<String> = []
        try withMutualTLSServer(setting) { target, tls in
            let run = certkitConnect(target, anchors(tls) + ["--identity", IdentityPaths.fixture("other-client.p12")] + password)
            #expect(run.status == 1, "\(setting) \(tls): \(run.stdout)\(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("the server refused the client certificate (the server sent alert "),
                    "\(setting) \(tls): \(run.stderr)")
            // The identity went out (GnuTLS too, though the server's list of acceptable CAs does not name its
            // issuer): the server refused it, it did not ask for a certificate it never got.
            #expect(!run.stderr.lowercased().contains("is required"), "\(setting) \(tls): \(run.stderr)")
            lines.insert(run.stderr)
        }
        #expect(lines.count == 1, "\(setting): \(lines)")
    }

    @Test("identity errors stop before connecting: wrong password, mismatched key, usage", arguments: BackendRegistry.standard.names)
    func identityErrors(tls: String) {
        // Nothing listens on port 1; identity errors come first.
        let wrong = certkitConnect("127.0.0.1:1", anchors(tls) + [
            "--identity", IdentityPaths.fixture("client.p12"), "--password-env", "CERTKIT_TEST_UNSET_\(tls)",
        ])
        #expect(wrong.status == 2, "\(wrong.stderr)")
        let mismatch = certkitConnect("127.0.0.1:1", anchors(tls) + [
            "--cert", IdentityPaths.fixture("client.pem"), "--key", IdentityPaths.fixture("other-client.key"),
        ])
        #expect(mismatch.status == 1)
        #expect(mismatch.stderr.contains("does not belong to the certificate"), "\(mismatch.stderr)")
        let noPassword = certkitConnect("127.0.0.1:1", anchors(tls) + ["--identity", IdentityPaths.fixture("client.p12")])
        #expect(noPassword.status == 1)
        #expect(noPassword.stderr.contains("needs a password"))
        #expect(certkitConnect("127.0.0.1:1", anchors(tls) + ["--cert", IdentityPaths.fixture("client.pem")]).status == 2)
        #expect(certkitConnect("127.0.0.1:1", anchors(tls) + [
            "--identity", IdentityPaths.fixture("client-chain.pem"),
        ]).status == 1)
    }

    @Test("a server that does not ask for a certificate: the identity is not needed, nothing changes")
    func notRequested() throws {
        let server = try TLSTestServer(.openssl, certificate: FixtureLocator.sample("server.pem"), key: FixtureLocator.sample("server.key"),
                                       chain: [FixtureLocator.sample("intermediate-ca.pem")])
        defer { server.stop() }
        for tls in BackendRegistry.standard.names {
            let run = certkitConnect("127.0.0.1:\(server.port)", anchors(tls) + ["--identity", IdentityPaths.fixture("client.p12")] + password)
            #expect(run.status == 0, "\(tls): \(run.stderr)")
        }
    }
}
