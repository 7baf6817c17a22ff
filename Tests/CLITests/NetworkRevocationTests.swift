@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Glibc
import Testing

/// `--network` revocation: OCSP from the responder the leaf names (`openssl ocsp -index … -port` on 127.0.0.1) and
/// CRLs from its distribution point (a loopback HTTP server), on both backends; `--require-revocation` with the
/// responder down. Every URL is on 127.0.0.1.
@Suite("evaluate --network: OCSP responder and CRL distribution points")
struct NetworkRevocationTests {
    /// `openssl ocsp` answering from the intermediate's database, signing as the intermediate.
    final class Responder {
        let server: LoopbackServer
        var port: UInt16 { server.port }

        init(_ pki: NetworkTestPKI, port: UInt16) throws {
            let file = pki.directory.file
            // Probe with a whole (malformed) request until it answers: openssl ocsp serves one connection at a time
            // and waits forever on one that closes without a request; -ignore_err keeps it serving afterwards.
            server = try LoopbackServer("openssl ocsp", port: port, attempts: 1, isReady: Self.answers(port:)) { port in
                [
                    "openssl", "ocsp", "-index", file("index.txt"), "-port", "\(port)", "-rsigner", file("int.pem"),
                    "-rkey", file("int.key"), "-CA", file("int.pem"), "-ndays", "1", "-ignore_err",
                ]
            }
        }

        /// True when a server on 127.0.0.1:`port` answers `GET / HTTP/1.0` within a second.
        static func answers(port: UInt16) -> Bool {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            var address = ConnectTestEnvironment.loopback(port: port)
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            guard connected else { return false }
            let request = Array("GET / HTTP/1.0\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 1000) > 0 else { return false }
            var byte: UInt8 = 0
            return recv(descriptor, &byte, 1, 0) > 0
        }
    }

    static func leafRevocation(_ run: RunResult) throws -> (Int32, [String: Any]) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any], "\(run.stderr)")
        #expect(object["agree"] as? Bool == true, "backends disagree: \(run.stdoutText)")
        let chain = try #require(object["chain"] as? [[String: Any]])
        return (run.code, chain[0]["revocation"] as? [String: Any] ?? [:])
    }

    static func evaluate(_ pki: NetworkTestPKI, _ options: [String]) -> RunResult {
        certkit(["evaluate", "--anchors", pki.root, "--intermediates", pki.intermediate, "--host", "leaf.example",
                 "--backend", "both", "--json", "--network"] + options + [pki.leaf])
    }

    @Test("OCSP from the responder: good is checked (source ocsp), revoked is fatal", arguments: [false, true])
    func responder(_ revoked: Bool) throws {
        let port = try LoopbackPort.free()
        let pki = try NetworkTestPKI(leafIssuerURL: "http://127.0.0.1:1/unused", ocspURL: "http://127.0.0.1:\(port)")
        try pki.writeIntermediateDatabase(leafRevoked: revoked, reason: revoked ? "keyCompromise" : nil)
        let responder = try Responder(pki, port: port)
        defer { responder.server.stop() }
        let run = Self.evaluate(pki, [])
        let (code, revocation) = try Self.leafRevocation(run)
        #expect(code == (revoked ? 11 : 0), "\(run.stdoutText)")
        #expect(revocation["outcome"] as? String == (revoked ? "revoked" : "good"))
        #expect(revocation["source"] as? String == "ocsp")
        // A revoked certificate shows when and why; the fetched URL is whole in the JSON, shortened in the text.
        #expect(revocation["revocationDate"] as? String == (revoked ? "2025-01-01T00:00:00Z" : nil))
        #expect(revocation["revocationReason"] as? String == (revoked ? "keyCompromise" : nil))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        let urls = (object["fetches"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
        let ocspURL = try #require(urls.first { $0.hasPrefix("http://127.0.0.1:\(port)/") }, "\(urls)")
        #expect(ocspURL.count > ReportNotes.urlDisplayLength, "a GET request carries the whole request: \(ocspURL)")
        let text = certkit(["evaluate", "--anchors", pki.root, "--intermediates", pki.intermediate, "--host", "leaf.example",
                            "--network", pki.leaf])
        #expect(text.stdoutText.contains("  fetched \(ReportNotes.shortened(ocspURL))"), "\(text.stdoutText)")
        #expect(!text.stdoutText.contains(ocspURL))
        if revoked {
            #expect(text.stdoutText.contains("      revocation: revoked (OCSP) on 2025-01-01T00:00:00Z, reason keyCompromise\n"),
                    "\(text.stdoutText)")
        }
        // Without --network nothing is asked: not checked, trusted.
        let offline = certkit(["evaluate", "--anchors", pki.root, "--intermediates", pki.intermediate, pki.leaf])
        #expect(offline.code == 0)
    }

    @Test("--require-revocation with the responder down: RevocationResponseRequired")
    func responderDown() throws {
        let port = try LoopbackPort.free()
        let pki = try NetworkTestPKI(leafIssuerURL: "http://127.0.0.1:1/unused", ocspURL: "http://127.0.0.1:\(port)")
        let (plain, _) = try Self.leafRevocation(Self.evaluate(pki, []))
        #expect(plain == 0)
        let run = Self.evaluate(pki, ["--require-revocation"])
        let (code, revocation) = try Self.leafRevocation(run)
        #expect(code == 10)
        #expect(revocation["outcome"] as? String == "notChecked")
        #expect(run.stdoutText.contains("RevocationResponseRequired"))
        #expect(run.stdoutText.contains("connection refused"))
    }

    @Test("a CRL from the distribution point is validated and applied like a CRL file", arguments: [false, true])
    func distributionPoint(_ revoked: Bool) throws {
        let server = try LoopbackHTTPServer()
        let pki = try NetworkTestPKI(leafIssuerURL: "http://127.0.0.1:1/unused", crlURL: "\(server.base)/int.crl")
        try pki.writeIntermediateDatabase(leafRevoked: revoked)
        server.route("/int.crl", .body(try pki.bytes(pki.directory.file("int.crl.der"))))
        let (code, revocation) = try Self.leafRevocation(Self.evaluate(pki, ["--revocation", "crl"]))
        #expect(code == (revoked ? 11 : 0))
        #expect(revocation["outcome"] as? String == (revoked ? "revoked" : "good"))
        #expect(revocation["source"] as? String == "crlFetched")
        let off = Self.evaluate(pki, ["--revocation", "off"])
        #expect(off.code == 0)
        server.stop()
        // One request: the second backend's evaluation took the CRL from the cache (fresh until its nextUpdate), and
        // --revocation off fetched nothing.
        #expect(server.connections == 1)
    }

    @Test("an OCSP `unknown` is no answer: the CRL of the distribution point is still fetched, and its revocation is fatal")
    func unknownThenCRL() throws {
        let server = try LoopbackHTTPServer()
        let pki = try NetworkTestPKI(
            leafIssuerURL: "http://127.0.0.1:1/unused", ocspURL: "\(server.base)/ocsp", crlURL: "\(server.base)/int.crl")
        try pki.writeIntermediateDatabase(leafRevoked: true)
        try pki.writeUnknownOCSPResponse()
        server.route("/ocsp/*", .body(try pki.bytes(pki.directory.file("ocsp-unknown.der"))))
        server.route("/int.crl", .body(try pki.bytes(pki.directory.file("int.crl.der"))))
        let run = Self.evaluate(pki, [])
        let (code, revocation) = try Self.leafRevocation(run)
        #expect(code == 11, "\(run.stdoutText)")
        #expect(revocation["outcome"] as? String == "revoked")
        #expect(revocation["source"] as? String == "crlFetched")
        #expect(server.requestedPaths.contains { $0.hasPrefix("/ocsp/") })
    }
}
