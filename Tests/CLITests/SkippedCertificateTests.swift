import CertKit
import CertKitBackends
import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// A pool certificate that does not decode is left out and named; only the leaf must decode.
@Suite("skipped pool certificates", .serialized)
struct SkippedCertificateTests {
    static let backends = BackendRegistry.standard.names

    /// A PEM block labelled CERTIFICATE whose content is not a certificate.
    static let garbageBlock = "-----BEGIN CERTIFICATE-----\n" + Data("not a certificate at all".utf8).base64EncodedString()
        + "\n-----END CERTIFICATE-----\n"

    /// `--intermediates` holding a garbage block, then the real intermediate.
    private func pool(_ directory: TemporaryDirectory) throws -> String {
        let intermediate = try String(contentsOfFile: FixtureLocator.sample("intermediate-ca.pem"), encoding: .utf8)
        return try directory.write("pool.pem", Array((Self.garbageBlock + intermediate).utf8))
    }

    @Test("evaluate: a garbage CERTIFICATE block in --intermediates is skipped and named; the chain is trusted",
          arguments: backends)
    func intermediates(backend: String) throws {
        let directory = try TemporaryDirectory()
        let pool = try pool(directory)
        let common = ["evaluate", "--backend", backend, "--anchors", FixtureLocator.sample("root-ca.pem"), "--intermediates", pool,
                      "--host", "localhost", FixtureLocator.sample("server.pem")]
        let json = certkit(common + ["--json"])
        #expect(json.code == 0, "\(json.stdoutText)\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        #expect(object["trusted"] as? Bool == true)
        let skipped = try #require(object["skippedCertificates"] as? [[String: Any]])
        #expect(skipped.count == 1)
        #expect(skipped.first?["source"] as? String == pool && skipped.first?["index"] as? Int == 0)
        #expect((skipped.first?["reason"] as? String)?.hasPrefix("PEM block 1 (CERTIFICATE): ") == true, "\(skipped)")
        let text = certkit(common)
        #expect(text.code == 0, "\(text.stdoutText)\(text.stderr)")
        let lines = text.stdoutText.split(separator: "\n").filter { $0.hasPrefix("  skipped: ") }
        #expect(lines.count == 1 && lines.first?.contains("certificate 0 of \(pool) does not decode") == true,
                "\(text.stdoutText)")
        // Without a bad certificate there is no key and no line.
        let clean = certkit(["evaluate", "--backend", backend, "--anchors", FixtureLocator.sample("root-ca.pem"), "--json",
                             "--host", "localhost", FixtureLocator.sample("server-chain.pem")])
        #expect(!clean.stdoutText.contains("skippedCertificates"))
    }

    @Test("evaluate: a bad certificate after the leaf in CHAIN is skipped; a bad leaf is an input error",
          arguments: backends)
    func chainFile(backend: String) throws {
        let directory = try TemporaryDirectory()
        let chain = try String(contentsOfFile: FixtureLocator.sample("server-chain.pem"), encoding: .utf8)
        let leaf = try String(contentsOfFile: FixtureLocator.sample("server.pem"), encoding: .utf8)
        let intermediate = try String(contentsOfFile: FixtureLocator.sample("intermediate-ca.pem"), encoding: .utf8)
        let extra = try directory.write("extra.pem", Array((leaf + Self.garbageBlock + intermediate).utf8))
        let common = ["evaluate", "--backend", backend, "--anchors", FixtureLocator.sample("root-ca.pem"), "--json", "--host", "localhost"]
        let run = certkit(common + [extra])
        #expect(run.code == 0, "\(run.stdoutText)\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        let skipped = try #require(object["skippedCertificates"] as? [[String: Any]])
        #expect(skipped.map { $0["index"] as? Int } == [1] && skipped.first?["source"] as? String == extra)
        // The leaf must decode: a bad first block is never replaced by the next certificate.
        let badLeaf = try directory.write("bad-leaf.pem", Array((Self.garbageBlock + chain).utf8))
        let refused = certkit(common + [badLeaf])
        #expect(refused.code == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr.hasPrefix("certkit: \(badLeaf): the leaf does not decode: PEM block 1 (CERTIFICATE)"),
                "\(refused.stderr)")
    }

    @Test("evaluate --batch: a bad certificate after the leaf is skipped (source chain[N]); a bad leaf is invalid-chain")
    func batch() throws {
        let ders = try BatchLines.derElements(FixtureLocator.sample("server-chain.pem"))
        let garbage = Data([0x30, 0x03, 0x02, 0x01, 0x00]).base64EncodedString()
        let lines = [
            BatchLines.line(["id": "skip", "chain": [ders[0], garbage, ders[1]]]),
            BatchLines.line(["id": "leaf", "chain": [garbage, ders[1]]]),
            // One PEM element whose first block (the leaf) does not decode and whose second does: the second never
            // takes the leaf's place.
            BatchLines.line([
                "id": "leaf-in-pem",
                "chain": [Self.garbageBlock + (try String(contentsOfFile: FixtureLocator.sample("intermediate-ca.pem"), encoding: .utf8))],
            ]),
        ]
        let run = try BatchProcess.run(
            ["evaluate", "--anchors", FixtureLocator.sample("root-ca.pem"), "--host", "localhost", "--batch", "-"], lines: lines)
        let objects = run.objects
        try #require(objects.count == 3, "\(run.stdout)\(run.stderr)")
        #expect(objects[0]["trusted"] as? Bool == true, "\(objects[0])")
        let skipped = try #require(objects[0]["skippedCertificates"] as? [[String: Any]])
        #expect(skipped.first?["source"] as? String == "chain[1]" && skipped.first?["index"] as? Int == 0)
        #expect((objects[1]["error"] as? [String: Any])?["code"] as? String == "invalid-chain")
        let leafInPEM = objects[2]["error"] as? [String: Any]
        #expect(leafInPEM?["code"] as? String == "invalid-chain", "\(objects[2])")
        #expect((leafInPEM?["message"] as? String)?.contains("the leaf does not decode") == true, "\(objects[2])")
    }

    @Test("ServerTrust: malformed DER after the leaf is skipped and named; a malformed leaf is otherError",
          arguments: backends)
    func serverTrust(backend: String) throws {
        let made = try #require(BackendRegistry.standard.backend(named: backend))
        let trust = ServerTrust(evaluator: TrustEvaluator(backend: made), anchors: try sampleCertificates("root-ca.pem"))
        let der = try sampleCertificates("server-chain.pem").map(\.derEncoded)
        let garbage: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x00]
        let report = trust.evaluate(presentedDER: [der[0], garbage, der[1]], host: "localhost")
        #expect(report.result == .unspecified, "\(report.error.map(\.description) ?? "")")
        #expect(report.skippedCertificates.map(\.index) == [1])
        #expect(report.skippedCertificates.first?.source == "the server's chain")
        #expect(trust.evaluate(presentedDER: [garbage, der[0], der[1]], host: "localhost").result == .otherError)
    }

    @Test("a skipped certificate counts toward Limits.maxPoolCertificates", arguments: backends)
    func poolBound(backend: String) throws {
        let made = try #require(BackendRegistry.standard.backend(named: backend))
        var limits = Limits.default
        limits.maxPoolCertificates = 1
        let evaluator = TrustEvaluator(backend: made, limits: limits)
        let chain = try sampleCertificates("server-chain.pem")
        var evaluation = TrustEvaluation(
            certificates: chain, policies: [.ssl(server: true, name: .dns("localhost"), profile: .apple)],
            anchors: try sampleCertificates("root-ca.pem"))
        #expect(evaluator.evaluate(evaluation).isTrusted, "one pool certificate is within the bound")
        evaluation.skippedCertificates = [SkippedCertificate(source: "x", index: 2, reason: "garbage")]
        let report = evaluator.evaluate(evaluation)
        #expect(report.result == .fatalTrustFailure && report.allFailures.contains(.resourceLimit), "\(report)")
        #expect(report.skippedCertificates.count == 1)
    }

    /// A self-signed certificate both TLS libraries load and certkit refuses to decode: 65 extensions, over
    /// Limits.maxExtensionsPerCertificate.
    private func undecodableExtra(_ directory: TemporaryDirectory) throws -> String {
        var config = "[req]\ndistinguished_name=dn\nprompt=no\nx509_extensions=ext\n[dn]\nCN=too many extensions\n[ext]\n"
        for index in 1...65 { config += "1.3.6.1.4.1.55555.\(index)=ASN1:UTF8String:x\n" }
        return try TestPKI(in: directory).selfSigned("extra", config: config)
    }

    /// `openssl s_server -cert_chain` sends the extra certificates as given; gnutls-serv drops one that is not an
    /// issuer in the chain, so it cannot serve this case. Both handshake libraries and both backends are the client.
    @Test("connect: a server that sends an undecodable extra certificate is evaluated; it is named (both TLS clients)")
    func connect() throws {
        let directory = try TemporaryDirectory()
        let extra = try undecodableExtra(directory)
        let kind = TLSTestServer.Kind.openssl
        let server = try TLSTestServer(kind, certificate: FixtureLocator.sample("server.pem"), key: FixtureLocator.sample("server.key"),
                                       chain: [extra, FixtureLocator.sample("intermediate-ca.pem")])
        defer { server.stop() }
        for tls in Self.backends {
            let run = certkitConnect("127.0.0.1:\(server.port)",
                                     ["--tls", tls, "--backend", tls, "--anchors", FixtureLocator.sample("root-ca.pem"), "--json"])
            #expect(run.status == 0, "\(kind) \(tls): \(run.stdout)\(run.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            let skipped = object?["skippedCertificates"] as? [[String: Any]]
            #expect(skipped?.count == 1 && skipped?.first?["index"] as? Int == 1, "\(kind) \(tls): \(run.stdout)")
            #expect(skipped?.first?["source"] as? String == "the server's chain")
            #expect((skipped?.first?["reason"] as? String)?.contains("maxExtensionsPerCertificate") == true)
            // --show-chain names it in its place; --save-chain keeps it, as the server sent it.
            let saved = directory.file("saved-\(tls).pem")
            let text = certkitConnect("127.0.0.1:\(server.port)",
                                      ["--tls", tls, "--anchors", FixtureLocator.sample("root-ca.pem"), "--show-chain", "--save-chain", saved])
            #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
            #expect(text.stdout.contains("presented 3 certificates (\(tls))"), "\(text.stdout)")
            #expect(text.stdout.contains("  [1] does not decode (left out of the pool): "), "\(text.stdout)")
            #expect(text.stdout.split(separator: "\n").filter { $0.hasPrefix("  skipped: certificate 1 of the server's chain") }.count == 1)
            let blocks = try String(contentsOfFile: saved, encoding: .utf8).components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
            #expect(blocks == 3)
        }
    }
}
