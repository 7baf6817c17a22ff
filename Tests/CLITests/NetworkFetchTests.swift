import CertKitTestSupport
import Foundation
import Testing

/// `--network`: a missing intermediate fetched from the leaf's caIssuers URL on a loopback HTTP server started by
/// the test, on both backends (`--backend both` exits 3 when they disagree), and every way the fetch can fail.
/// Every URL is on 127.0.0.1.
@Suite("evaluate/connect --network: AIA caIssuers completion")
struct NetworkFetchTests {
    /// Evaluates `pki.leaf` (alone) against `anchors` with `options`, on both backends, as JSON.
    static func evaluate(_ pki: NetworkTestPKI, anchors: String? = nil, _ options: [String]) throws -> (Int32, [String: Any]) {
        let run = certkit(
            ["evaluate", "--anchors", anchors ?? pki.root, "--host", "leaf.example", "--backend", "both", "--json"]
                + options + [pki.leaf])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any], "\(run.stderr)")
        #expect(object["agree"] as? Bool == true, "backends disagree: \(run.stdoutText)")
        return (run.code, object)
    }

    static func failedChecks(_ object: [String: Any]) -> [[String]] {
        (object["chain"] as? [[String: Any]] ?? []).map { $0["failedChecks"] as? [String] ?? [] }
    }

    static func fetches(_ object: [String: Any]) -> [[String: Any]] { object["fetches"] as? [[String: Any]] ?? [] }

    @Test("without --network nothing is fetched: no connection at all, the chain stays incomplete")
    func offlineMakesNoConnection() throws {
        let server = try LoopbackHTTPServer()
        let pki = try NetworkTestPKI(leafIssuerURL: "\(server.base)/int.der")
        server.route("/int.der", .body(try pki.bytes(pki.intermediateDER)))
        let (code, object) = try Self.evaluate(pki, [])
        #expect(code == 10)
        #expect(Self.failedChecks(object).last == ["MissingIntermediate"])
        #expect(object["fetches"] == nil)
        server.stop()
        #expect(server.connections == 0)
    }

    @Test("with --network the intermediate is fetched (DER, PKCS#7), added to the pool and the chain completes",
          arguments: ["der", "p7b"])
    func completesTheChain(_ format: String) throws {
        let server = try LoopbackHTTPServer()
        let pki = try NetworkTestPKI(leafIssuerURL: "\(server.base)/int.\(format)")
        let body: [UInt8]
        if format == "der" {
            body = try pki.bytes(pki.intermediateDER)
        } else {
            let p7b = pki.directory.file("int.p7b")
            _ = try ProcessRunner.run(
                ["/usr/bin/openssl", "crl2pkcs7", "-nocrl", "-certfile", pki.intermediate, "-outform", "DER", "-out", p7b])
            body = try pki.bytes(p7b)
        }
        server.route("/int.\(format)", .body(body))
        let (code, object) = try Self.evaluate(pki, ["--network"])
        #expect(code == 0)
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.count == 3)
        #expect(chain[1]["fetchedFrom"] as? String == "\(server.base)/int.\(format)")
        #expect(chain[0]["fetchedFrom"] is NSNull)
        let fetches = Self.fetches(object)
        #expect(fetches.count == 1)
        #expect(fetches.first?["problem"] is NSNull)
        #expect((fetches.first?["outcome"] as? String)?.contains("added to the pool") == true)
    }

    @Test("a fresh answer (max-age) is cached across evaluations: both backends, one request")
    func cache() throws {
        let server = try LoopbackHTTPServer()
        let pki = try NetworkTestPKI(leafIssuerURL: "\(server.base)/int.der")
        server.route("/int.der", .body(try pki.bytes(pki.intermediateDER), maxAge: 3600))
        let (code, _) = try Self.evaluate(pki, ["--network"])
        #expect(code == 0)
        #expect(server.requestedPaths == ["/int.der"])
        server.route("/int.der", .body(try pki.bytes(pki.intermediateDER)))  // no freshness: fetched each time
        let (again, _) = try Self.evaluate(pki, ["--network"])
        #expect(again == 0)
        #expect(server.requestedPaths.count == 3)
    }

    @Test("failures: the URL down, an answer that is not HTTP, a 404, not a certificate, too large, a negative Content-Length, a redirect to https, an unrelated certificate")
    func failures() throws {
        let server = try LoopbackHTTPServer()
        let downPort = try LoopbackPort.free()
        let cases: [(url: String, reply: LoopbackHTTPServer.Reply?, problem: String?, outcome: String?)] = [
            ("http://127.0.0.1:\(downPort)/int.der", nil, "connection refused", nil),
            ("\(server.base)/raw", .raw(Array("hello".utf8)), "not an HTTP response", nil),
            ("\(server.base)/missing", nil, "HTTP 404 Not Found", nil),
            ("\(server.base)/garbage", .body(Array("not a certificate".utf8)), nil, "not a certificate"),
            ("\(server.base)/huge", .body([UInt8](repeating: 0x41, count: 5 << 20)),
             "the body is larger than \(4 << 20) bytes", nil),  // Limits.maxFetchBytes
            // A negative Content-Length once trapped (Array.prefix of a negative length): a crash, not a failed fetch.
            ("\(server.base)/negative", .raw(Array("HTTP/1.0 200 OK\r\nContent-Length: -1\r\n\r\nabc".utf8)),
             "malformed Content-Length", nil),
            ("\(server.base)/redirect", .raw(Array("HTTP/1.0 302 Found\r\nLocation: https://127.0.0.1:1/int.der\r\n\r\n".utf8)),
             "redirected to 'https://127.0.0.1:1/int.der', not an http:// URL", nil),
        ]
        for item in cases {
            if let reply = item.reply { server.route(String(item.url.split(separator: "/", maxSplits: 3).last.map { "/\($0)" } ?? ""), reply) }
            let pki = try NetworkTestPKI(leafIssuerURL: item.url)
            let (code, object) = try Self.evaluate(pki, ["--network"])
            #expect(code == 10, "\(item.url)")
            #expect(Self.failedChecks(object).last == ["MissingIntermediate"])
            let fetch = try #require(Self.fetches(object).first)
            if let problem = item.problem { #expect(fetch["problem"] as? String == problem) }
            if let outcome = item.outcome { #expect((fetch["outcome"] as? String)?.hasPrefix(outcome) == true) }
        }
        let pki = try NetworkTestPKI(leafIssuerURL: "\(server.base)/unrelated.der")
        server.route("/unrelated.der", .body(try pki.bytes(pki.unrelatedDER)))
        let (code, object) = try Self.evaluate(pki, ["--network"])
        #expect(code == 10)
        #expect((object["chain"] as? [[String: Any]])?.count == 1)
        #expect((Self.fetches(object).first?["outcome"] as? String)?.contains("none issued") == true)
    }

    @Test("at most Limits.maxFetchesPerEvaluation (8) requests per evaluation")
    func fetchBudget() throws {
        let server = try LoopbackHTTPServer()  // every path is a 404
        let urls = (1...10).map { "\(server.base)/int\($0).der" }
        let pki = try NetworkTestPKI(leafIssuerURL: urls.joined(separator: ",caIssuers;URI:"))
        let run = certkit(["evaluate", "--anchors", pki.root, "--json", "--network", pki.leaf])
        #expect(run.code == 10)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        let problems = Self.fetches(object).map { $0["problem"] as? String ?? "" }
        #expect(problems.count == 10)
        #expect(problems.prefix(8).allSatisfy { $0 == "HTTP 404 Not Found" })
        #expect(problems.suffix(2).allSatisfy { $0.contains("Limits.maxFetchesPerEvaluation") })
        server.stop()
        #expect(server.connections == 8)
    }

    @Test("a server that never answers: the fetch times out (Limits.fetchTimeout) and the chain stays incomplete")
    func slow() throws {
        let server = try LoopbackHTTPServer(routes: ["/slow": .silent])
        let pki = try NetworkTestPKI(leafIssuerURL: "\(server.base)/slow")
        let run = certkit(["evaluate", "--anchors", pki.root, "--json", "--network", pki.leaf])
        #expect(run.code == 10)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        #expect(Self.fetches(object).first?["problem"] as? String == "timed out")
    }

    @Test("a loop of caIssuers references ends: each URL is fetched once per evaluation")
    func loop() throws {
        let server = try LoopbackHTTPServer()
        // The intermediate's own caIssuers points back at the URL it came from; its issuer (the root) is not trusted.
        let pki = try NetworkTestPKI(leafIssuerURL: "\(server.base)/int.der", intIssuerURL: "\(server.base)/int.der")
        server.route("/int.der", .body(try pki.bytes(pki.intermediateDER)))
        let (code, object) = try Self.evaluate(pki, anchors: pki.directory.file("unrelated.pem"), ["--network"])
        #expect(code == 10)
        #expect(Self.failedChecks(object).last == ["MissingIntermediate"])
        #expect(Self.fetches(object).count == 1)
        server.stop()
        #expect(server.connections == 2)  // once per backend: no freshness, no cache
    }

    @Test("connect --network completes an incomplete chain served by a local TLS server",
          arguments: TLSTestServer.Kind.allCases)
    func connect(_ kind: TLSTestServer.Kind) throws {
        let http = try LoopbackHTTPServer()
        let pki = try NetworkTestPKI(leafIssuerURL: "\(http.base)/int.der")
        http.route("/int.der", .body(try pki.bytes(pki.intermediateDER)))
        let server = try TLSTestServer(kind, certificate: pki.leaf, key: pki.directory.file("leaf.key"))
        defer { server.stop() }
        let offline = certkit(["connect", "127.0.0.1:\(server.port)", "--servername", "leaf.example", "--host", "leaf.example",
                               "--anchors", pki.root, "--backend", "both"])
        #expect(offline.code == 10, "\(offline.stdoutText)\(offline.stderr)")
        #expect(http.connections == 0)
        let online = certkit(["connect", "127.0.0.1:\(server.port)", "--servername", "leaf.example", "--host", "leaf.example",
                              "--anchors", pki.root, "--backend", "both", "--network"])
        #expect(online.code == 0, "\(online.stdoutText)\(online.stderr)")
        #expect(online.stdoutText.contains("(fetched from \(http.base)/int.der)"))
    }
}
