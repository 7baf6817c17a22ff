import CertKit
import CertKitBackends
import Foundation
import Testing

/// Every input of an evaluation is one value (`EvaluationInputs`), and the result cache keys on all of it: a stored
/// property of that value which the cache ignored would serve a report made for other inputs.
@Suite("Evaluation inputs: one value, the cache key")
struct EvaluationInputsTests {
    /// How each stored property is changed, keyed by its name. The verify date is the one input the key leaves out:
    /// the cached report's validity window judges it (a date inside the window is served, see ResultCacheTests).
    private static func changes(
        chain: [Certificate], root: [Certificate], other: [Certificate], backend: any TrustBackend
    ) throws -> [String: (inout EvaluationInputs) throws -> Void] {
        let leaf = chain[0]
        let crl = try ConcurrencyFixtures.crl("revoked-leaf/int-revokes-leaf.crl.pem")
        let ocsp = try OCSPResponse(derEncoded: OCSPResponseTests.bytes("good.der"))
        return [
            "certificates": { $0.certificates = [leaf] },
            "policies": { $0.policies = [.sslServer(host: "other.example")] },
            "anchors": { $0.anchors = root + other },
            "anchorsOnly": { $0.anchorsOnly = false },
            "verifyDate": { $0.verifyDate = ConcurrencyFixtures.date("2030-06-02") },
            "trustSettings": { $0.trustSettings = TrustSettings(alwaysTrust: [leaf]) },
            "exceptions": {
                $0.exceptions = TrustExceptions(
                    leafSHA256: try backend.digest(.sha256, of: leaf.derEncoded), checks: [.sslHostname])
            },
            "crls": { $0.crls = [crl] },
            "ocspResponses": { $0.ocspResponses = [ocsp] },
            "revocationMode": { $0.revocationMode = .off },
            "networkFetchAllowed": { $0.networkFetchAllowed = true },
            "requireRevocation": { $0.requireRevocation = true },
            "pins": { $0.pins = [try SPKIPin(certificate: leaf, backend: backend)] },
            "additionalIntermediates": { $0.additionalIntermediates = other },
            "maxDepth": { $0.maxDepth = 3 },
            "skippedCertificates": {
                $0.skippedCertificates = [SkippedCertificate(source: "pool.pem", index: 1, reason: "does not decode")]
            },
            "fetchedOCSPResponses": { $0.fetchedOCSPResponses = [ocsp] },
            "fetchedCRLs": { $0.fetchedCRLs = [crl] },
            "certificateTransparencyLogList": {
                $0.certificateTransparencyLogList = try CTLogList(
                    json: Array(#"{"log_list_timestamp": "2030-06-01T00:00:00Z", "operators": []}"#.utf8), source: "list.json")
            },
            "tlsSignedCertificateTimestamps": { $0.tlsSignedCertificateTimestamps = [[0, 1, 0]] },
        ]
    }

    @Test("each stored input changes the result-cache key; a new input needs an entry here",
          arguments: BackendRegistry.standard.names)
    func everyInputIsInTheKey(backend name: String) throws {
        let backend = ConcurrencyFixtures.backend(name)
        let chain = try ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
        let root = try ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem")
        let other = try ConcurrencyFixtures.certificates("valid-chain-ec/root-ec.pem")
        let base = ConcurrencyFixtures.evaluation(chain: chain, anchors: root).inputs
        let changes = try Self.changes(chain: chain, root: root, other: other, backend: backend)

        let stored = Mirror(reflecting: base).children.compactMap(\.label)
        #expect(Set(stored) == Set(changes.keys), "every stored input has a change in this test, and only those")
        #expect(stored.count == changes.count)

        for label in stored {
            let change = try #require(changes[label])
            var changed = base
            try change(&changed)
            #expect(changed != base, "the change of \(label) changes the inputs")
            let evaluator = TrustEvaluator(backend: backend, configuration: .cached)
            _ = evaluator.evaluate(TrustEvaluation(base))
            _ = evaluator.evaluate(TrustEvaluation(base))
            #expect(evaluator.cacheStatistics.resultHits == 1, "the unchanged inputs are served from the cache")
            let report = evaluator.evaluate(TrustEvaluation(changed))
            let reference = TrustEvaluator(backend: backend, configuration: .uncached).evaluate(TrustEvaluation(changed))
            #expect(report == reference, "\(label): the changed inputs get their own verdict")
            if label == "verifyDate" {
                #expect(evaluator.cacheStatistics.resultHits == 2, "a date inside the validity window is served")
            } else {
                #expect(evaluator.cacheStatistics.resultHits == 1, "\(label): changed inputs are not served from the cache")
            }
        }
    }

    @Test("TrustEvaluation, ServerTrust and ClientTrust build the same inputs from their properties")
    func decisionsEmbedTheInputs() throws {
        let chain = try ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
        let root = try ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem")
        let evaluator = TrustEvaluator(backend: ConcurrencyFixtures.backend("openssl"))
        var server = ServerTrust(evaluator: evaluator, anchors: root, intermediates: Array(chain.dropFirst()))
        server.requireRevocation = true
        server.revocationMode = .ocsp
        let fromServer = server.evaluation(presentedChain: [chain[0]], host: "leaf.example")
        var direct = TrustEvaluation(
            certificates: [chain[0]], policies: [.sslServer(host: "leaf.example")], anchors: root,
            additionalIntermediates: Array(chain.dropFirst()), revocationMode: .ocsp, requireRevocation: true)
        #expect(fromServer.inputs == direct.inputs)
        direct.maxDepth = 2
        #expect(fromServer.inputs != direct.inputs)

        var client = ClientTrust(evaluator: evaluator, anchors: root, expectedIdentities: [.dnsName("client.example")])
        client.networkFetchAllowed = true
        let fromClient = client.evaluation(presentedChain: chain)
        let expected = TrustEvaluation(
            certificates: chain, policies: [.sslClient(identities: [.dnsName("client.example")], profile: .apple)],
            anchors: root, networkFetchAllowed: true)
        #expect(fromClient.inputs == expected.inputs)
    }

    @Test("every argument of ServerTrust's and ClientTrust's initialisers reaches the inputs", arguments: BackendRegistry.standard.names)
    func initialisersKeepEveryArgument(backend name: String) throws {
        let backend = ConcurrencyFixtures.backend(name)
        let chain = try ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
        let root = try ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem")
        let other = try ConcurrencyFixtures.certificates("valid-chain-ec/root-ec.pem")
        let evaluator = TrustEvaluator(backend: backend)
        let pins = [try SPKIPin(certificate: other[0], backend: backend)]
        let exceptions = TrustExceptions(leafSHA256: [UInt8](repeating: 1, count: 32), checks: [.sslHostname])
        let date = ConcurrencyFixtures.date("2030-06-02")
        let server = ServerTrust(
            evaluator: evaluator, anchors: root, anchorsOnly: false, intermediates: other, profile: .rfc5280, pins: pins,
            exceptions: exceptions, verifyDate: date)
        let expected = TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: "leaf.example", profile: .rfc5280)], anchors: root,
            anchorsOnly: false, verifyDate: date, exceptions: exceptions, pins: pins, additionalIntermediates: other)
        #expect(server.evaluation(presentedChain: chain, host: "leaf.example").inputs == expected.inputs)
        // The pin names another key: the chain the server presents is refused for it.
        let pinned = ServerTrust(evaluator: evaluator, anchors: root, pins: pins, verifyDate: ConcurrencyFixtures.verifyDate)
        #expect(pinned.evaluate(presentedChain: chain, host: "leaf.example").isTrusted == false)
        let unpinned = ServerTrust(evaluator: evaluator, anchors: root, verifyDate: ConcurrencyFixtures.verifyDate)
        #expect(unpinned.evaluate(presentedChain: chain, host: "leaf.example").isTrusted)

        let crl = try ConcurrencyFixtures.crl("revoked-leaf/int-revokes-leaf.crl.pem")
        let settings = TrustSettings(alwaysTrust: [other[0]])
        let identities: [GeneralName] = [.dnsName("client.example")]
        let client = ClientTrust(
            evaluator: evaluator, anchors: root, anchorsOnly: false, intermediates: other, profile: .rfc5280,
            expectedIdentities: identities, trustSettings: settings, crls: [crl], pins: pins, verifyDate: date)
        let expectedClient = TrustEvaluation(
            certificates: chain, policies: [.sslClient(identities: identities, profile: .rfc5280)], anchors: root,
            anchorsOnly: false, verifyDate: date, trustSettings: settings, crls: [crl], pins: pins,
            additionalIntermediates: other)
        #expect(client.evaluation(presentedChain: chain).inputs == expectedClient.inputs)
    }

    @Test("changing an input through TrustEvaluation resets its report; anchors still set anchorsOnly")
    func settersResetTheReport() throws {
        let chain = try ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
        let root = try ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem")
        var evaluation = ConcurrencyFixtures.evaluation(chain: chain, anchors: root)
        _ = evaluation.evaluate(with: TrustEvaluator(backend: ConcurrencyFixtures.backend("openssl")))
        #expect(evaluation.result == .unspecified)
        evaluation.maxDepth = 5
        #expect(evaluation.result == .invalid)
        evaluation.anchors = []
        #expect(evaluation.anchorsOnly == false)
        evaluation.anchors = root
        #expect(evaluation.anchorsOnly == true)
    }
}
