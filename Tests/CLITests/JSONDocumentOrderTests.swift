import CertKit
@testable import CertKitCLI
import Foundation
import Testing

/// The evaluate documents are written member by member (``JSONWriter``) in the order the keys must have: parsed
/// back into a ``JSONValue`` tree, whose rendering sorts every object's keys, each renders to the same bytes, in
/// the indented and the compact form, for every optional member the schema has.
@Suite("evaluate JSON: written in sorted order")
struct JSONDocumentOrderTests {
    /// The tree of a parsed document (numbers are whole in these documents).
    static func tree(_ value: BatchJSON) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let text, let integer): .int(integer ?? Int.min + text.count)
        case .string(let text): .string(text)
        case .array(let values): .array(values.map(tree))
        case .object(let members):
            .object(Dictionary(uniqueKeysWithValues: members.map { ($0.key, tree($0.value)) }))
        }
    }

    /// The document re-sorted through a tree, in the same form.
    static func resorted(_ document: String, pretty: Bool) throws -> String {
        let value = tree(try BatchJSON.parse(Array(document.utf8)))
        return pretty ? value.rendered : value.compact
    }

    static func reports() throws -> [TrustReport] {
        var plain = try EvaluateRenderingTests.report(.unspecified, checks: [[], [], []], error: nil)
        plain.fingerprints = try plain.chain.map { try Digests.sha256($0.derEncoded) }
        var everything = try EvaluateRenderingTests.report(
            .recoverableTrustFailure, checks: [[.temporalValidity, .sslHostname], [.revocation], []],
            error: EvaluateRenderingTests.expired)
        everything.fingerprints = plain.fingerprints
        everything.libraryVerdict = ["[0] openssl: \"quoted\" \\ and \u{1B} escape"]
        everything.fetches = [
            NetworkFetchRecord(url: "http://ca.example/ocsp", problem: "timed out", fromCache: true, outcome: nil),
            NetworkFetchRecord(url: "http://ca.example/crl", outcome: "good"),
        ]
        everything.revocation = [
            RevocationStatus(outcome: .good, source: .stapledOCSP, validUntil: Date(timeIntervalSince1970: 1_900_000_000)),
            RevocationStatus(outcome: .revoked, source: .crlFile), RevocationStatus(outcome: .notApplicable),
        ]
        everything.fetchedFrom = ["http://ca.example/int.der", nil, nil]
        everything.skippedCertificates = [SkippedCertificate(source: "pool.pem", index: 2, reason: "PEM block 3: bad")]
        var noRule = plain
        noRule.result = .fatalTrustFailure
        noRule.error = TrustError(check: .anchorTrusted, certificateIndex: 2, message: "no rule / ü")
        noRule.checks = [[], [], [.anchorTrusted]]
        var client = plain
        client.policy = .sslClient(identities: [.dnsName("a.example"), .email("u@a.example")], profile: .webpki)
        var short = plain
        short.fingerprints = []
        short.policy = .basicX509
        return [plain, everything, noRule, client, short]
    }

    @Test("one report, agreeing and disagreeing backends, with and without a batch id")
    func sortedOrder() throws {
        for report in try Self.reports() {
            let single = EvaluateJSONRenderer.render(report)
            #expect(try Self.resorted(single, pretty: true) == single)
            var gnutls = report
            gnutls.backend = "gnutls"
            let agreement = EvaluateJSONRenderer.renderAgreement([report, gnutls])
            #expect(agreement.contains("\"agree\": true"))
            #expect(try Self.resorted(agreement, pretty: true) == agreement)
            let disagreement = EvaluateJSONRenderer.renderDisagreement([report, gnutls])
            #expect(try Self.resorted(disagreement, pretty: true) == disagreement)
            for id: JSONValue in [.null, .int(-7), .string("line \"1\"")] {
                var writer = JSONWriter(pretty: false)
                EvaluateJSONRenderer.write(report, to: &writer, backends: ["openssl", "gnutls"], id: id)
                let line = writer.finishedText()
                #expect(!line.dropLast().contains("\n") && !line.contains("\": "))
                #expect(try Self.resorted(line, pretty: false) == line)
                var disagreeing = JSONWriter(pretty: false)
                EvaluateJSONRenderer.writeDisagreement([gnutls, report], to: &disagreeing, id: id)
                let disagreeingLine = disagreeing.finishedText()
                #expect(try Self.resorted(disagreeingLine, pretty: false) == disagreeingLine)
            }
        }
    }

    @Test("the fingerprints are lowercase hex, empty when the library gave none; the issuers' names")
    func fingerprints() throws {
        let reports = try Self.reports()
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(EvaluateJSONRenderer.render(reports[0]).utf8)) as? [String: Any])
        let chain = try #require(json["chain"] as? [[String: Any]])
        #expect(chain.map { $0["sha256"] as? String } == reports[0].fingerprints.map(Hex.encode))
        #expect(chain.allSatisfy { ($0["sha256"] as? String)?.count == 64 })
        // Each issuer is the name's own text, also where the next certificate's subject (same encoding) gave it.
        #expect(chain.map { $0["issuer"] as? String } == reports[0].chain.map {
            DistinguishedName(derEncoded: $0.issuer.derEncoded, relativeNames: $0.issuer.relativeNames).description
        })
        #expect(chain.map { $0["issuer"] as? String } == [
            "CN=certkit Demo Intermediate CA", "CN=certkit Demo Root CA", "CN=certkit Demo Root CA",
        ])
        let short = try #require(try JSONSerialization.jsonObject(
            with: Data(EvaluateJSONRenderer.render(reports[4]).utf8)) as? [String: Any])
        #expect((short["chain"] as? [[String: Any]])?.map { $0["sha256"] as? String } == ["", "", ""])
    }
}
