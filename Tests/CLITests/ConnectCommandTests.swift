import CertKit
import CertKitBackends
import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// What one `certkit` run produced.
struct ConnectRunResult {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The verdict line (`unspecified: trusted`, `recoverableTrustFailure: errSec...`).
    var verdict: String { stdout.split(separator: "\n").first.map(String.init) ?? "" }
}

/// Runs `certkit connect` in process.
func certkitConnect(_ target: String, _ arguments: [String]) -> ConnectRunResult {
    let stdout = MemorySink()
    let stderr = MemorySink()
    let status = CertKitCommand.run(
        arguments: ["connect", target] + arguments, stdin: MemorySource(), stdout: stdout, stderr: stderr)
    return ConnectRunResult(status: status, stdout: stdout.text, stderr: stderr.text)
}

private func sample(_ name: String) -> String { FixtureLocator.sample(name) }

/// `certkit connect` against real `openssl s_server` and `gnutls-serv` processes on 127.0.0.1, through both
/// handshake libraries (`--tls openssl`, `--tls gnutls`). Serialized: each test runs its own servers, and CI has
/// two cores.
@Suite(.serialized)
struct ConnectCommandTests {
    static let handshakeLibraries = BackendRegistry.standard.names

    /// Starts `kind` serving `leaf` with `key` (plus `chain`) and runs `body` once per handshake library.
    private func withServer(
        _ kind: TLSTestServer.Kind, leaf: String, key: String, chain: [String] = [],
        _ body: (_ target: String, _ tls: String) throws -> Void
    ) throws {
        let server = try TLSTestServer(kind, certificate: sample(leaf), key: sample(key), chain: chain.map(sample))
        defer { server.stop() }
        for tls in Self.handshakeLibraries {
            try body("127.0.0.1:\(server.port)", tls)
        }
    }

    @Test("full chain, Samples root as anchor: unspecified", arguments: TLSTestServer.Kind.allCases)
    func fullChainIsTrusted(kind: TLSTestServer.Kind) throws {
        try withServer(kind, leaf: "server.pem", key: "server.key", chain: ["intermediate-ca.pem"]) { target, tls in
            let run = certkitConnect(target, ["--tls", tls, "--anchors", sample("root-ca.pem"), "--show-chain"])
            #expect(run.status == 0, "\(tls): \(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("presented 2 certificates (\(tls))"), "\(tls): \(run.stdout)")
            #expect(run.stdout.contains("unspecified: trusted"), "\(tls): \(run.stdout)")
            #expect(run.stdout.contains("CN=certkit Demo Root CA"), "\(tls): the built chain ends at the anchor")
        }
    }

    @Test("self-signed server pinned as the only anchor: unspecified", arguments: TLSTestServer.Kind.allCases)
    func pinnedSelfSignedIsTrusted(kind: TLSTestServer.Kind) throws {
        try withServer(kind, leaf: "self-signed.pem", key: "self-signed.key") { target, tls in
            let run = certkitConnect(target, ["--tls", tls, "--anchors", sample("self-signed.pem")])
            #expect(run.status == 0, "\(tls): \(run.stdout)\(run.stderr)")
            #expect(run.verdict == "unspecified: trusted", "\(tls)")
        }
    }

    @Test("leaf-only server: trusted with --intermediates, MissingIntermediate without",
          arguments: TLSTestServer.Kind.allCases)
    func leafOnlyNeedsIntermediates(kind: TLSTestServer.Kind) throws {
        try withServer(kind, leaf: "server.pem", key: "server.key") { target, tls in
            let anchors = ["--tls", tls, "--anchors", sample("root-ca.pem"), "--show-chain"]
            let completed = certkitConnect(target, anchors + ["--intermediates", sample("intermediate-ca.pem")])
            #expect(completed.status == 0, "\(tls): \(completed.stdout)\(completed.stderr)")
            #expect(completed.stdout.contains("presented 1 certificate (\(tls))"), "\(tls): \(completed.stdout)")
            #expect(completed.stdout.contains("unspecified: trusted"), "\(tls)")

            let incomplete = certkitConnect(target, anchors)
            #expect(incomplete.status == 10, "\(tls): \(incomplete.stdout)\(incomplete.stderr)")
            #expect(incomplete.stdout.contains("errSecCreateChainFailed"), "\(tls): \(incomplete.stdout)")
        }
    }

    @Test("wrong host: recoverableTrustFailure, errSecHostNameMismatch", arguments: TLSTestServer.Kind.allCases)
    func wrongHost(kind: TLSTestServer.Kind) throws {
        try withServer(kind, leaf: "wrong-host.pem", key: "wrong-host.key", chain: ["intermediate-ca.pem"]) {
            target, tls in
            let run = certkitConnect(target, ["--tls", tls, "--anchors", sample("root-ca.pem"), "--json"])
            #expect(run.status == 10, "\(tls): \(run.stdout)\(run.stderr)")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(tls)")
            #expect(json["result"] as? String == "recoverableTrustFailure", "\(tls)")
            let error = try #require(json["error"] as? [String: Any], "\(tls)")
            #expect(error["name"] as? String == "errSecHostNameMismatch", "\(tls)")
            #expect(error["code"] as? Int == -67602, "\(tls)")
            // The same certificate passes when the policy checks the name it was issued for.
            let named = certkitConnect(target, ["--tls", tls, "--anchors", sample("root-ca.pem"), "--host", "wrong.example"])
            #expect(named.status == 0, "\(tls): \(named.stdout)\(named.stderr)")
        }
    }

    @Test("--ip names the peer alone: the address is checked against IP SANs, the target adds no host name",
          arguments: TLSTestServer.Kind.allCases)
    func ipNamesThePeer(kind: TLSTestServer.Kind) throws {
        try withServer(kind, leaf: "server.pem", key: "server.key", chain: ["intermediate-ca.pem"]) { target, tls in
            let anchors = ["--tls", tls, "--anchors", sample("root-ca.pem"), "--json"]
            let run = certkitConnect(target, anchors + ["--ip", "127.0.0.1"])
            #expect(run.status == 0, "\(tls): \(run.stdout)\(run.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(tls)")
            #expect(json["hostSource"] as? String == "--ip", "\(tls): \(run.stdout)")
            // Another address fails the name check: the address given is the one checked.
            let other = certkitConnect(target, anchors + ["--ip", "10.0.0.1"])
            #expect(other.status == 10, "\(tls): \(other.stdout)\(other.stderr)")
        }
    }

    @Test("expired leaf: errSecCertificateExpired", arguments: TLSTestServer.Kind.allCases)
    func expiredLeaf(kind: TLSTestServer.Kind) throws {
        try withServer(kind, leaf: "expired.pem", key: "expired.key", chain: ["intermediate-ca.pem"]) { target, tls in
            let run = certkitConnect(target, ["--tls", tls, "--anchors", sample("root-ca.pem")])
            #expect(run.status == 10, "\(tls): \(run.stdout)\(run.stderr)")
            #expect(run.verdict.hasPrefix("recoverableTrustFailure: errSecCertificateExpired (-67818)"), "\(tls): \(run.verdict)")
        }
    }

    @Test("unknown root: errSecNotTrusted", arguments: TLSTestServer.Kind.allCases)
    func unknownRoot(kind: TLSTestServer.Kind) throws {
        try withServer(kind, leaf: "self-signed.pem", key: "self-signed.key") { target, tls in
            let run = certkitConnect(target, ["--tls", tls, "--anchors", sample("root-ca.pem")])
            #expect(run.status == 10, "\(tls): \(run.stdout)\(run.stderr)")
            #expect(run.verdict.hasPrefix("recoverableTrustFailure: errSecNotTrusted (-67843)"), "\(tls): \(run.verdict)")
        }
    }

    @Test("--save-chain writes the presented chain as PEM", arguments: TLSTestServer.Kind.allCases)
    func saveChain(kind: TLSTestServer.Kind) throws {
        let temporary = try TemporaryDirectory(prefix: "certkit-connect")
        let directory = temporary.url
        let expected = try CertificateBundle.decode(Array(try Data(contentsOf: URL(fileURLWithPath: sample("server-chain.pem")))))
        try withServer(kind, leaf: "server.pem", key: "server.key", chain: ["intermediate-ca.pem"]) { target, tls in
            let path = directory.appendingPathComponent("chain-\(tls).pem").path
            let run = certkitConnect(target, ["--tls", tls, "--anchors", sample("root-ca.pem"), "--save-chain", path])
            #expect(run.status == 0, "\(tls): \(run.stdout)\(run.stderr)")
            let saved = try CertificateBundle.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(saved.format == .pem)
            #expect(saved.certificates == expected.certificates, "\(tls)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "no temporary file is left behind")
    }

    @Test("exceptions: save after a recoverable failure, proceed next time, fail again for a new certificate",
          arguments: TLSTestServer.Kind.allCases)
    func exceptionsFlow(kind: TLSTestServer.Kind) throws {
        let pki = try TestPKI(prefix: "certkit-connect")
        let directory = pki.directory.url
        let replacement = try makeSelfSignedCertificate(in: pki)
        for tls in Self.handshakeLibraries {
            let exceptions = directory.appendingPathComponent("exceptions-\(tls).json").path
            let anchors = ["--tls", tls, "--anchors", sample("root-ca.pem")]
            do {
                let server = try TLSTestServer(kind, certificate: sample("self-signed.pem"), key: sample("self-signed.key"))
                defer { server.stop() }
                let target = "127.0.0.1:\(server.port)"
                let first = certkitConnect(target, anchors + ["--save-exceptions", exceptions])
                #expect(first.status == 10, "\(tls): \(first.stdout)\(first.stderr)")
                #expect(first.verdict.hasPrefix("recoverableTrustFailure"), "\(tls)")
                #expect(FileManager.default.fileExists(atPath: exceptions), "\(tls): exceptions saved")

                let second = certkitConnect(target, anchors + ["--exceptions", exceptions])
                #expect(second.status == 0, "\(tls): \(second.stdout)\(second.stderr)")
                #expect(second.verdict == "proceed: trusted", "\(tls): \(second.verdict)")
            }
            // The server now presents another certificate: the saved exceptions do not cover it.
            let changed = try TLSTestServer(kind, certificate: replacement.certificate, key: replacement.key)
            defer { changed.stop() }
            let third = certkitConnect("127.0.0.1:\(changed.port)", anchors + ["--exceptions", exceptions])
            #expect(third.status == 10, "\(tls): \(third.stdout)\(third.stderr)")
            #expect(third.verdict.hasPrefix("recoverableTrustFailure: errSecNotTrusted"), "\(tls): \(third.verdict)")
        }
    }

    @Test("closed port: exit 1, connection refused")
    func closedPort() throws {
        let port = try LoopbackPort.free()
        for tls in Self.handshakeLibraries {
            let run = certkitConnect("127.0.0.1:\(port)", ["--tls", tls, "--anchors", sample("root-ca.pem")])
            #expect(run.status == 1, "\(tls)")
            #expect(run.stderr == "certkit: 127.0.0.1:\(port): connection refused\n", "\(tls)")
            #expect(run.stdout.isEmpty, "\(tls)")
        }
    }

    @Test("a peer that does not speak TLS: exit 1, clear message")
    func peerNotSpeakingTLS() throws {
        let server = try GarbageServer(
            reply: "HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\nthis is not TLS\r\n",
            connections: Self.handshakeLibraries.count)
        defer { server.finish() }
        for tls in Self.handshakeLibraries {
            let run = certkitConnect("127.0.0.1:\(server.port)", ["--tls", tls, "--anchors", sample("root-ca.pem")])
            #expect(run.status == 1, "\(tls): \(run.stderr)")
            #expect(run.stderr.hasPrefix("certkit: 127.0.0.1:\(server.port): the peer does not speak TLS ("), "\(tls): \(run.stderr)")
            #expect(run.stderr.filter { $0 == "\n" }.count == 1, "one line")
        }
    }

    @Test("a server that accepts but never answers: exit 1 after --timeout")
    func silentServerTimesOut() throws {
        let server = try SilentServer()
        for tls in Self.handshakeLibraries {
            let run = certkitConnect(
                "127.0.0.1:\(server.port)", ["--tls", tls, "--timeout", "1", "--anchors", sample("root-ca.pem")])
            #expect(run.status == 1, "\(tls): \(run.stderr)")
            #expect(run.stderr == "certkit: 127.0.0.1:\(server.port): timed out\n", "\(tls)")
        }
    }

    @Test("unresolvable host, bad arguments")
    func inputAndUsageErrors() {
        let unresolvable = certkitConnect("no-such-host.invalid:443", ["--anchors", sample("root-ca.pem")])
        #expect(unresolvable.status == 1)
        #expect(unresolvable.stderr.hasPrefix("certkit: no-such-host.invalid:443: name not resolvable"), "\(unresolvable.stderr)")

        for (target, arguments, message) in [
            ("127.0.0.1:0", ["--anchors", sample("root-ca.pem")], "is not HOST[:PORT]"),
            ("127.0.0.1:99999", ["--anchors", sample("root-ca.pem")], "is not HOST[:PORT]"),
            ("127.0.0.1:1", ["--anchors", sample("root-ca.pem"), "--tls", "schannel"], "--tls must be " + BackendRegistry.standard.names.joined(separator: " or ")),
            ("127.0.0.1:1", ["--anchors", sample("root-ca.pem"), "--timeout", "0"], "--timeout must be"),
            ("127.0.0.1:1", ["--anchors", sample("root-ca.pem"), "--json", "--show-chain"], "--show-chain prints text"),
        ] {
            let run = certkitConnect(target, arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
            #expect(run.stderr.contains("(see 'certkit connect --help')"), "\(run.stderr)")
        }
        // Anchors are read before connecting: a missing file is an input error even for a closed port.
        let missing = certkitConnect("127.0.0.1:1", ["--anchors", "/nonexistent/root.pem"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("certkit: /nonexistent/root.pem: "), "\(missing.stderr)")
    }

    /// A new self-signed localhost/127.0.0.1 server certificate (EC P-256) made with the openssl CLI.
    private func makeSelfSignedCertificate(in pki: TestPKI) throws -> (certificate: String, key: String) {
        let certificate = try pki.selfSigned(
            "replacement", subject: "/CN=localhost", key: "ec:P-256", days: 30,
            extensions: [
                "subjectAltName=DNS:localhost,IP:127.0.0.1", "basicConstraints=critical,CA:FALSE",
                "extendedKeyUsage=serverAuth",
            ])
        return (certificate.path, pki.file("replacement.key"))
    }
}
