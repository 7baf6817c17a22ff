import CertKit
import CertKitBackends
import CertKitSockets
import Foundation
import Testing

/// The per-evaluation fetch deadline (`Limits.evaluationFetchTimeout`), through the library entry point a TLS client
/// uses (`ServerTrust` with `networkFetchAllowed`), on both backends: a responder on 127.0.0.1 that trickles its
/// body never ends the evaluation late. The deadline is tightened to 2 s and the per-request timeout loosened to
/// 60 s, so only the evaluation's deadline can end the trickling fetch.
@Suite("network fetching: the per-evaluation deadline")
struct NetworkDeadlineTests {
    static var limits: Limits {
        var limits = Limits.default
        limits.fetchTimeout = .seconds(60)
        limits.evaluationFetchTimeout = .seconds(2)
        return limits
    }

    @Test("a trickling OCSP responder: the fetch ends at the deadline, the next is refused, RevocationResponseRequired",
          arguments: BackendRegistry.standard.names)
    func tricklingResponder(backend: String) throws {
        let server = try LoopbackHTTPServer(routes: ["/ocsp/*": .trickle])
        let pki = try NetworkTestPKI(
            leafIssuerURL: "\(server.base)/int.der", ocspURL: "\(server.base)/ocsp", crlURL: "\(server.base)/int.crl")
        server.route("/int.der", .body(try pki.bytes(pki.intermediateDER)))
        try pki.writeIntermediateDatabase(leafRevoked: false)
        server.route("/int.crl", .body(try pki.bytes(pki.directory.file("int.crl.der"))))
        let evaluator = TrustEvaluator(
            backend: try #require(BackendRegistry.standard.backend(named: backend)), limits: Self.limits,
            network: NetworkAccess(fetcher: HTTPFetcher(), limits: Self.limits))
        var trust = ServerTrust(
            evaluator: evaluator, anchors: try CertificateBundle.decode(pki.bytes(pki.root)).certificates)
        trust.networkFetchAllowed = true
        trust.requireRevocation = true

        let started = ContinuousClock.now
        let report = trust.evaluate(
            presentedChain: try CertificateBundle.decode(pki.bytes(pki.leaf)).certificates, host: "leaf.example")
        let elapsed = ContinuousClock.now - started
        server.stop()

        // The intermediate came back at once; the OCSP request trickled until the deadline; the CRL, which would
        // have answered, was not asked for: the evaluation's time was used up.
        #expect(report.chain.count == 3, "\(report)")
        #expect(report.fetches.map(\.url).first == "\(server.base)/int.der")
        #expect(report.fetches.count == 3, "\(report.fetches)")
        #expect(report.fetches.dropFirst().first?.problem == "timed out", "\(report.fetches)")
        #expect(report.fetches.last?.url == "\(server.base)/int.crl")
        #expect(report.fetches.last?.problem?.contains("Limits.evaluationFetchTimeout") == true, "\(report.fetches)")
        #expect(!server.requestedPaths.contains("/int.crl"))
        #expect(report.error?.check == .revocationResponseRequired, "\(report)")
        // Not a timing measurement: only proof that it did not wait for the 60 s per-request timeout.
        #expect(elapsed < .seconds(30))
    }
}
