import Foundation
import Testing

/// OCSP stapling: `connect` asks for a stapled response (status_request) with either TLS library and the core
/// validates it like `--ocsp-response`. Servers: `openssl s_server -status_file` and `gnutls-serv --ocsp-response`
/// on 127.0.0.1; every server × TLS library, judged by both backends (`--backend both`).
@Suite("connect: stapled OCSP responses")
struct StaplingTests {
    static let cases: [(TLSTestServer.Kind, String)] = TLSTestServer.Kind.allCases.flatMap { kind in
        ["openssl", "gnutls"].map { (kind, $0) }
    }

    static func staple(_ kind: TLSTestServer.Kind, _ response: String) -> [String] {
        switch kind {
        case .openssl: ["-status_file", OCSPTests.file(response)]
        case .gnutls: ["--ocsp-response", OCSPTests.file(response), "--ignore-ocsp-response-errors"]
        }
    }

    static func connect(_ kind: TLSTestServer.Kind, tls: String, leaf: String, response: String?, _ options: [String] = [])
        throws -> (Int32, [String: Any])
    {
        let server = try TLSTestServer(
            kind, certificate: OCSPTests.file("\(leaf).pem"), key: OCSPTests.file("\(leaf).key"),
            extraArguments: response.map { staple(kind, $0) } ?? [])
        defer { server.stop() }
        let run = certkit([
            "connect", "127.0.0.1:\(server.port)", "--servername", "leaf.example", "--host", "leaf.example",
            "--anchors", OCSPTests.file("ca.pem"), "--at", try OCSPTests.date("verify-date.txt"), "--tls", tls,
            "--backend", "both", "--json",
        ] + options)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any], "\(run.stderr)")
        #expect(object["agree"] as? Bool == true, "backends disagree: \(run.stdoutText)")
        let chain = try #require(object["chain"] as? [[String: Any]])
        return (run.code, chain[0]["revocation"] as? [String: Any] ?? [:])
    }

    @Test("a stapled good response: checked, source stapledOCSP", arguments: cases)
    func good(_ kind: TLSTestServer.Kind, _ tls: String) throws {
        let (code, revocation) = try Self.connect(kind, tls: tls, leaf: "leaf-good", response: "good.der")
        #expect(code == 0)
        #expect(revocation["outcome"] as? String == "good")
        #expect(revocation["source"] as? String == "stapledOCSP")
    }

    @Test("a stapled revoked response: fatal Revocation", arguments: cases)
    func revoked(_ kind: TLSTestServer.Kind, _ tls: String) throws {
        let (code, revocation) = try Self.connect(kind, tls: tls, leaf: "leaf-revoked", response: "revoked.der")
        #expect(code == 11)
        #expect(revocation["outcome"] as? String == "revoked")
    }

    @Test("no staple: --require-revocation fails with RevocationResponseRequired", arguments: TLSTestServer.Kind.allCases)
    func none(_ kind: TLSTestServer.Kind) throws {
        let (code, revocation) = try Self.connect(kind, tls: "openssl", leaf: "leaf-good", response: nil, ["--require-revocation"])
        #expect(code == 10)
        #expect(revocation["outcome"] as? String == "notChecked")
    }
}
