import CertKitBackends
import CertKitTestSupport
import Testing

/// How `certkit connect --identity` reads the server's verdict on the client certificate, through both handshake
/// libraries, against real `openssl s_server -Verify 2 -verify_return_error` processes on 127.0.0.1 that end each
/// connection cleanly as soon as the handshake completes (`-brief`, standard input at end of file): under TLS 1.3
/// session tickets then close_notify, or close_notify alone (`-num_tickets 0`). Only an alert is a refusal, and
/// both libraries name it the same way. Serialized: each test runs its own servers.
@Suite(.serialized)
struct ConnectClientVerdictTests {
    struct Setting: CustomStringConvertible, Sendable {
        let tls12: Bool
        let tickets: Bool
        var description: String { (tls12 ? "TLS 1.2" : "TLS 1.3") + (tickets ? "" : ", no session tickets") }
        var serverArguments: [String] { tickets ? [] : ["-num_tickets", "0"] }
    }

    static let settings = [
        Setting(tls12: false, tickets: true), Setting(tls12: false, tickets: false), Setting(tls12: true, tickets: true),
    ]

    /// Runs per handshake library in the acceptance test: 20 against the server of the report (TLS 1.3, tickets
    /// then close_notify; the OpenSSL client called it a refusal 3 times in 3 before the fix), 5 for the others.
    static func runs(_ setting: Setting) -> Int { !setting.tls12 && setting.tickets ? 20 : 5 }

    private let password = ["--password-file", IdentityPaths.passwordFile]

    private func closingServer(_ setting: Setting) throws -> TLSTestServer {
        try TLSTestServer(
            .openssl, certificate: FixtureLocator.sample("server.pem"), key: FixtureLocator.sample("server.key"),
            chain: [FixtureLocator.sample("intermediate-ca.pem")], clientCA: IdentityPaths.fixture("client-root-ca.pem"),
            tls12: setting.tls12, closesAfterHandshake: true, extraArguments: setting.serverArguments)
    }

    private func arguments(_ tls: String, identity: String?) -> [String] {
        ["--tls", tls, "--anchors", FixtureLocator.sample("root-ca.pem"), "--host", "localhost"]
            + (identity.map { ["--identity", IdentityPaths.fixture($0)] + password } ?? [])
    }

    @Test("the right identity, then a clean close: accepted every time, by both libraries", arguments: settings)
    func acceptedThenClosed(setting: Setting) throws {
        let server = try closingServer(setting)
        defer { server.stop() }
        for tls in BackendRegistry.standard.names {
            for run in 1...Self.runs(setting) {
                let result = certkitConnect("127.0.0.1:\(server.port)", arguments(tls, identity: "client.p12"))
                #expect(result.status == 0, "\(setting) \(tls) run \(run): \(result.stderr)")
                #expect(result.verdict == "unspecified: trusted", "\(setting) \(tls) run \(run)")
                if result.status != 0 { break }
            }
        }
    }

    @Test("an identity from another CA, or none: refused, the alert named alike by both libraries", arguments: settings)
    func refusedWithTheAlert(setting: Setting) throws {
        let server = try closingServer(setting)
        defer { server.stop() }
        var lines: [String: [String]] = [:]
        for tls in BackendRegistry.standard.names {
            let wrong = certkitConnect("127.0.0.1:\(server.port)", arguments(tls, identity: "other-client.p12"))
            #expect(wrong.status == 1, "\(setting) \(tls): \(wrong.stdout)\(wrong.stderr)")
            #expect(wrong.stderr.contains("the server refused the client certificate (the server sent alert unknown_ca)"),
                    "\(setting) \(tls): \(wrong.stderr)")
            let none = certkitConnect("127.0.0.1:\(server.port)", arguments(tls, identity: nil))
            #expect(none.status == 1, "\(setting) \(tls): \(none.stdout)\(none.stderr)")
            #expect(none.stderr.contains("requires a client certificate and none was presented (the server sent alert "),
                    "\(setting) \(tls): \(none.stderr)")
            if !setting.tls12 {
                #expect(none.stderr.contains("alert certificate_required)"), "\(setting) \(tls): \(none.stderr)")
            }
            lines[tls] = [wrong.stderr, none.stderr]
        }
        #expect(Set(lines.values).count == 1, "\(setting): \(lines)")
    }

    /// A warning alert does not end a TLS 1.2 handshake, so it is not the server's verdict: a server that does not
    /// host the name asked for sends unrecognized_name as a warning (`s_server -servername` without
    /// `-servername_fatal`), then refuses the client certificate with a fatal alert, and that one is named.
    @Test("a warning alert before the refusal is not the verdict: the fatal alert is named, by both libraries")
    func warningAlertIsNotTheVerdict() throws {
        let server = try TLSTestServer(
            .openssl, certificate: FixtureLocator.sample("server.pem"), key: FixtureLocator.sample("server.key"),
            chain: [FixtureLocator.sample("intermediate-ca.pem")], clientCA: IdentityPaths.fixture("client-root-ca.pem"),
            tls12: true, closesAfterHandshake: true,
            extraArguments: ["-servername", "other.example", "-cert2", FixtureLocator.sample("server.pem"),
                             "-key2", FixtureLocator.sample("server.key")])
        defer { server.stop() }
        for tls in BackendRegistry.standard.names {
            let wrong = certkitConnect(
                "127.0.0.1:\(server.port)", arguments(tls, identity: "other-client.p12") + ["--servername", "app.example"])
            #expect(wrong.status == 1, "\(tls): \(wrong.stdout)\(wrong.stderr)")
            #expect(wrong.stderr.contains("the server refused the client certificate (the server sent alert unknown_ca)"),
                    "\(tls): \(wrong.stderr)")
            #expect(!wrong.stderr.contains("unrecognized_name"), "\(tls): \(wrong.stderr)")
        }
    }

    @Test("TLS 1.3 with the verdict hidden (a bare close or a reset, no alert): not a refusal", arguments: [false, true])
    func noVerdictIsNoRefusal(reset: Bool) throws {
        let server = try closingServer(Self.settings[0])
        defer { server.stop() }
        let libraries = BackendRegistry.standard.names
        let relay = try TruncatingRelay(to: server.port, reset: reset, connections: 2 * libraries.count)
        defer { relay.finish() }
        for tls in libraries {
            for identity in ["client.p12", "other-client.p12"] {
                let result = certkitConnect("127.0.0.1:\(relay.port)", arguments(tls, identity: identity))
                #expect(result.status == 0, "reset \(reset) \(tls) \(identity): \(result.stderr)")
            }
        }
    }
}
