import CertKit
import CertKitBackends
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

private func sample(_ name: String) -> String { FixtureLocator.sample(name) }

/// The environment of a child process whose system roots are exactly `bundle` (no SSL_CERT_DIR).
private func systemRoots(_ bundle: String) -> [String: String] { ["SSL_CERT_FILE": bundle, "SSL_CERT_DIR": ""] }

/// What a newcomer meets first: no anchor option means the system roots (as SecTrust, openssl s_client and curl
/// do), said in the output; the name checked by connect; the hints that point to what works.
@Suite("everyday defaults: system roots, the name checked, hints")
struct EverydayDefaultsTests {
    static let at = ["--at", "2026-06-01T00:00:00Z"]

    @Test("evaluate without --anchors uses the system roots and says so (text and JSON)")
    func evaluateDefaultsToSystemRoots() throws {
        let root = sample("root-ca.pem")
        let text = try BinaryTests.run(
            ["evaluate", "--host", "localhost"] + Self.at + [sample("server-chain.pem")], environment: systemRoots(root))
        let output = String(decoding: text.stdout, as: UTF8.self)
        #expect(text.code == 0, "\(output)\(text.stderr)")
        #expect(output.hasPrefix("unspecified: trusted\n"))
        #expect(output.hasSuffix("  anchors: system roots (\(root), 1 certificate)\n"), "\(output)")

        let json = try BinaryTests.run(
            ["evaluate", "--json", "--host", "localhost"] + Self.at + [sample("server-chain.pem")],
            environment: systemRoots(root))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        let sources = try #require(object["anchorSources"] as? [[String: Any]])
        #expect(sources.count == 1)
        #expect(sources.first?["kind"] as? String == "systemRoots")
        #expect(sources.first?["path"] as? String == root)
        #expect(sources.first?["certificates"] as? Int == 1)

        // Another bundle: the same chain has no trusted root (the system roots really are the anchors).
        let other = try BinaryTests.run(
            ["evaluate", "--host", "localhost"] + Self.at + [sample("server-chain.pem")],
            environment: systemRoots(sample("self-signed.pem")))
        #expect(other.code == 10)
    }

    @Test("--anchors alone means only these; --system-roots adds the system roots")
    func anchorsOnlyAndSystemRoots() throws {
        let environment = systemRoots(sample("root-ca.pem"))
        let arguments = ["evaluate", "--host", "localhost", "--anchors", sample("self-signed.pem")] + Self.at
        let only = try BinaryTests.run(arguments + [sample("server-chain.pem")], environment: environment)
        let onlyText = String(decoding: only.stdout, as: UTF8.self)
        #expect(only.code == 10, "the system root is not an anchor with --anchors alone: \(onlyText)")
        #expect(onlyText.hasSuffix("  anchors: \(sample("self-signed.pem")) (1 certificate)\n"), "\(onlyText)")

        let both = try BinaryTests.run(arguments + ["--system-roots", sample("server-chain.pem")], environment: environment)
        let bothText = String(decoding: both.stdout, as: UTF8.self)
        #expect(both.code == 0, "\(bothText)")
        #expect(bothText.hasSuffix(
            "  anchors: \(sample("self-signed.pem")) (1 certificate); system roots (\(sample("root-ca.pem")), 1 certificate)\n"))
    }

    @Test("the system roots may come from SSL_CERT_DIR")
    func certificateDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-cert-dir")
        try directory.write("0a1b2c3d.0", try FixtureLocator.bytes(sample("root-ca.pem")))
        try directory.write("0a1b2c3d.r0", Array("not a certificate\n".utf8))
        let run = try BinaryTests.run(
            ["evaluate", "--host", "localhost"] + Self.at + [sample("server-chain.pem")],
            environment: ["SSL_CERT_FILE": "", "SSL_CERT_DIR": directory.path])
        let output = String(decoding: run.stdout, as: UTF8.self)
        #expect(run.code == 0, "\(output)\(run.stderr)")
        #expect(output.hasSuffix("  anchors: system roots (\(directory.path), 1 certificate)\n"), "\(output)")
    }

    @Test("no system roots to be found: an input error that says so, never an empty anchor set")
    func noSystemRoots() throws {
        for environment in [
            ["SSL_CERT_FILE": "/nonexistent/bundle.pem", "SSL_CERT_DIR": ""],
            ["SSL_CERT_FILE": "", "SSL_CERT_DIR": "/nonexistent/certs"],
        ] {
            let run = try BinaryTests.run(["evaluate", "--host", "localhost", sample("server-chain.pem")], environment: environment)
            #expect(run.code == 1, "\(environment)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.split(separator: "\n").count == 1)
            #expect(run.stderr.contains("/nonexistent/"), "\(run.stderr)")
            #expect(run.stderr.contains("no --anchors"), "says why the system roots were wanted: \(run.stderr)")
        }
    }

    @Test("--batch without --anchors: every line against the system roots, each document says so")
    func batchDefaultsToSystemRoots() throws {
        let root = sample("root-ca.pem")
        let der = try CertificateBundle.decode(try FixtureLocator.bytes(sample("server-chain.pem"))).certificates
            .map { Data($0.derEncoded).base64EncodedString() }
        let lines = [
            #"{"id": "a", "chain": ["\#(der[0])", "\#(der[1])"], "host": "localhost"}"#,
            #"{"id": "b", "chain": ["\#(der[0])", "\#(der[1])"], "host": "other.example"}"#,
        ].joined(separator: "\n") + "\n"
        let run = try BinaryTests.run(
            ["evaluate", "--batch", "-"] + Self.at, stdin: Array(lines.utf8), environment: systemRoots(root))
        #expect(run.code == 10, "\(run.stderr)")
        let documents = try String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(documents.map { $0["result"] as? String } == ["unspecified", "recoverableTrustFailure"])
        for document in documents {
            let sources = try #require(document["anchorSources"] as? [[String: Any]])
            #expect(sources.map { $0["kind"] as? String } == ["systemRoots"])
        }
    }

    @Test("the SSLHostname message says which name was checked and where it came from")
    func hostNameOrigin() throws {
        let run = certkit(
            ["evaluate", "--anchors", sample("root-ca.pem"), "--host", "other.example"] + Self.at + [sample("server-chain.pem")])
        #expect(run.code == 10)
        #expect(run.stdoutText.hasPrefix("recoverableTrustFailure: errSecHostNameMismatch (-67602): "))
        #expect(run.stdoutText.contains("the name checked, \"other.example\", is from --host"), "\(run.stdoutText)")
    }

    @Test("a missing issuer whose certificate names a caIssuers URL: the hint names it and --network")
    func caIssuersHint() throws {
        let url = "http://127.0.0.1:9/int.der"
        let pki = try NetworkTestPKI(leafIssuerURL: url)
        let run = certkit(["evaluate", "--anchors", pki.root, "--host", "leaf.example", pki.leaf])
        #expect(run.code == 10)
        let verdict = try #require(run.stdoutText.split(separator: "\n").first)
        #expect(verdict.contains("errSecCreateChainFailed"))
        #expect(verdict.hasSuffix("; the certificate names its issuer at \(url); --network fetches it"), "\(verdict)")
        // Without a caIssuers URL there is nothing to point to.
        let plain = certkit(["evaluate", "--anchors", sample("root-ca.pem"), "--host", "localhost"] + Self.at + [sample("server.pem")])
        #expect(plain.code == 10)
        #expect(!plain.stdoutText.contains("--network"))
    }

    @Test("no revocation source: one line says revocation was not checked and why")
    func revocationNotChecked() throws {
        let base = ["evaluate", "--anchors", sample("root-ca.pem"), "--host", "localhost"] + Self.at
        let plain = certkit(base + [sample("server-chain.pem")])
        #expect(plain.code == 0)
        let lines = plain.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("revocation") } == ["  revocation not checked (no CRL, OCSP or --network)"])
        let off = certkit(base + ["--revocation", "off", sample("server-chain.pem")])
        #expect(off.stdoutText.contains("  revocation not checked (--revocation off)\n"))
    }

    @Test("a revoked certificate shows the revocation date and reason, from a CRL file and an OCSP response file")
    func revokedDateAndReason() throws {
        let pki = try NetworkTestPKI(leafIssuerURL: "http://127.0.0.1:9/int.der")
        try pki.writeIntermediateDatabase(leafRevoked: true, reason: "keyCompromise")
        try pki.writeOCSPResponse("revoked.der")
        let base = ["evaluate", "--anchors", pki.root, "--intermediates", pki.intermediate, "--host", "leaf.example"]
        for (option, file, label, json) in [
            ("--crl", pki.directory.file("int.crl.pem"), "CRL file", "crlFile"),
            ("--ocsp-response", pki.directory.file("revoked.der"), "OCSP response file", "ocspFile"),
        ] {
            let text = certkit(base + [option, file, pki.leaf])
            #expect(text.code == 11, "\(text.stdoutText)\(text.stderr)")
            #expect(text.stdoutText.contains(
                "      revocation: revoked (\(label)) on 2025-01-01T00:00:00Z, reason keyCompromise\n"), "\(text.stdoutText)")
            let run = certkit(base + ["--json", option, file, pki.leaf])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
            let chain = try #require(object["chain"] as? [[String: Any]])
            let revocation = try #require(chain[0]["revocation"] as? [String: Any])
            #expect(revocation["source"] as? String == json)
            #expect(revocation["revocationDate"] as? String == "2025-01-01T00:00:00Z")
            #expect(revocation["revocationReason"] as? String == "keyCompromise")
        }
    }

    @Test("a fetched URL is shortened in the text, whole in the JSON")
    func shortenedURL() {
        let url = "http://127.0.0.1:8080/" + String(repeating: "MFMwUTBPME0wSzAJBgUrDgMCGgUABBQ", count: 3)
        let short = ReportNotes.shortened(url)
        #expect(short.count == ReportNotes.urlDisplayLength)
        #expect(short.hasSuffix("…") && url.hasPrefix(short.dropLast()))
        #expect(ReportNotes.shortened("http://a.example/int.der") == "http://a.example/int.der")
    }
}

/// `connect`'s defaults against real local servers: the system roots (the test's root in SSL_CERT_FILE) and the
/// `--servername` as the name checked. Serialized: each test runs its own servers.
@Suite("connect: system roots and --servername", .serialized)
struct ConnectDefaultsTests {
    private func withServer(leaf: String, key: String, _ body: (String) throws -> Void) throws {
        let server = try TLSTestServer(
            .openssl, certificate: sample(leaf), key: sample(key), chain: [sample("intermediate-ca.pem")])
        defer { server.stop() }
        try body("127.0.0.1:\(server.port)")
    }

    @Test("no anchor option: the system roots, for the verdict, --show-chain and --save-chain")
    func systemRootsByDefault() throws {
        let root = sample("root-ca.pem")
        try withServer(leaf: "server.pem", key: "server.key") { target in
            let directory = try TemporaryDirectory(prefix: "certkit-connect-defaults")
            let saved = directory.file("chain.pem")
            for tls in BackendRegistry.standard.names {
                let run = try BinaryTests.run(
                    ["connect", target, "--tls", tls, "--show-chain", "--save-chain", saved], environment: systemRoots(root))
                let output = String(decoding: run.stdout, as: UTF8.self)
                #expect(run.code == 0, "\(tls): \(output)\(run.stderr)")
                #expect(output.contains("presented 2 certificates (\(tls))"), "\(tls)")
                #expect(output.contains("unspecified: trusted\n"), "\(tls): \(output)")
                #expect(output.hasSuffix("  anchors: system roots (\(root), 1 certificate)\n"), "\(tls): \(output)")
                #expect(FileManager.default.fileExists(atPath: saved))
            }
            // Another system bundle: the same server is not trusted, and the output says which roots were used.
            let other = try BinaryTests.run(["connect", target, "--json"], environment: systemRoots(sample("self-signed.pem")))
            #expect(other.code == 10)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(other.stdout)) as? [String: Any])
            let sources = try #require(object["anchorSources"] as? [[String: Any]])
            #expect(sources.map { $0["path"] as? String } == [sample("self-signed.pem")])
            // None to be found: an input error before any verdict.
            let none = try BinaryTests.run(["connect", target], environment: systemRoots("/nonexistent/bundle.pem"))
            #expect(none.code == 1)
            #expect(none.stderr.hasPrefix("certkit: /nonexistent/bundle.pem: "), "\(none.stderr)")
        }
    }

    @Test("--servername is the name checked when --host/--ip is not given; the message says where it came from")
    func serverNameIsChecked() throws {
        try withServer(leaf: "wrong-host.pem", key: "wrong-host.key") { target in
            let anchors = ["--anchors", sample("root-ca.pem")]
            // The server's certificate is for wrong.example: asked for by SNI, it is the right name.
            let asked = certkitConnect(target, anchors + ["--servername", "wrong.example"])
            #expect(asked.status == 0, "\(asked.stdout)\(asked.stderr)")
            // The target's address is checked without --servername, and the message says it came from the target.
            let address = certkitConnect(target, anchors)
            #expect(address.status == 10)
            #expect(address.verdict.contains("is not valid for \"127.0.0.1\""), "\(address.verdict)")
            #expect(address.verdict.contains("the name checked, \"127.0.0.1\", is from the target \(target)"), "\(address.verdict)")
            // Another --servername fails on that name, naming --servername.
            let other = certkitConnect(target, anchors + ["--servername", "app.internal"])
            #expect(other.status == 10)
            #expect(other.verdict.contains("the name checked, \"app.internal\", is from --servername"), "\(other.verdict)")
            let json = certkitConnect(target, anchors + ["--servername", "app.internal", "--json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["host"] as? String == "app.internal")
            #expect(object["hostSource"] as? String == "--servername")
            // --host still wins over --servername.
            let host = certkitConnect(target, anchors + ["--servername", "app.internal", "--host", "wrong.example"])
            #expect(host.status == 0, "\(host.stdout)")
        }
    }
}
