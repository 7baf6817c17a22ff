import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// `evaluate --batch` with stapled OCSP responses: a line's `ocsp` key (base64 DER, a string or an array) and
/// `--ocsp-response` on the command line (every line), on both backends. Fixtures: the ocsp fixture set.
@Suite("evaluate --batch: OCSP responses per line")
struct OCSPBatchTests {
    static func base64(_ name: String) throws -> String {
        Data(try FixtureLocator.bytes(OCSPTests.file(name))).base64EncodedString()
    }

    static func pem(_ name: String) throws -> String {
        String(decoding: try FixtureLocator.bytes(OCSPTests.file(name)), as: UTF8.self)
    }

    static func line(_ id: String, _ leaf: String, ocsp: Any?) throws -> String {
        var object: [String: Any] = ["id": id, "chain": [try pem(leaf)]]
        if let ocsp { object["ocsp"] = ocsp }
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test("a line's staple answers for its chain, the command line's for every line; a bad one is an error line")
    func perLine() throws {
        let lines = [
            try Self.line("good", "leaf-good.pem", ocsp: try Self.base64("good.der")),
            try Self.line("both", "leaf-good.pem", ocsp: [try Self.base64("revoked.der"), try Self.base64("good.der")]),
            try Self.line("revoked", "leaf-revoked.pem", ocsp: try Self.base64("revoked.der")),
            try Self.line("fromCommandLine", "leaf-revoked.pem", ocsp: nil),
            try Self.line("none", "leaf-unknown.pem", ocsp: nil),
            try Self.line("notBase64", "leaf-good.pem", ocsp: "not base64!"),
            try Self.line("notOCSP", "leaf-good.pem", ocsp: Data("hello".utf8).base64EncodedString()),
            try Self.line("notString", "leaf-good.pem", ocsp: 7),
        ]
        let run = certkit(
            ["evaluate", "--anchors", OCSPTests.file("ca.pem"), "--at", try OCSPTests.date("verify-date.txt"),
             "--require-revocation", "--ocsp-response", OCSPTests.file("revoked.der"), "--backend", "both",
             "--batch", "-"],
            stdin: Array(lines.joined(separator: "\n").utf8))
        #expect(run.code == 1, "error lines make the batch exit 1: \(run.stderr)")
        let objects = run.stdoutText.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(objects.count == lines.count)
        var byID: [String: [String: Any]] = [:]
        for object in objects { byID[object["id"] as? String ?? ""] = object }

        func leaf(_ id: String) -> (checks: [String], revocation: [String: Any]) {
            let chain = byID[id]?["chain"] as? [[String: Any]] ?? []
            #expect(byID[id]?["agree"] as? Bool == true, "\(id): \(byID[id] ?? [:])")
            return (chain.first?["failedChecks"] as? [String] ?? [], chain.first?["revocation"] as? [String: Any] ?? [:])
        }
        for id in ["good", "both"] {
            #expect(byID[id]?["result"] as? String == "unspecified", "\(id): \(byID[id] ?? [:])")
            #expect(leaf(id).revocation["outcome"] as? String == "good")
            #expect(leaf(id).revocation["source"] as? String == "stapledOCSP")
        }
        for id in ["revoked", "fromCommandLine"] {
            #expect(leaf(id).checks == ["Revocation"], "\(id): \(byID[id] ?? [:])")
            #expect(leaf(id).revocation["outcome"] as? String == "revoked")
        }
        #expect(leaf("none").checks == ["RevocationResponseRequired"], "\(byID["none"] ?? [:])")

        for (id, message) in [("notBase64", "ocsp[0] is not base64"), ("notOCSP", "ocsp[0] is not an OCSP response: "),
                              ("notString", "\"ocsp\" must be a string or an array of strings")] {
            let error = byID[id]?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "invalid-value", "\(id): \(byID[id] ?? [:])")
            #expect((error?["message"] as? String)?.hasPrefix(message) == true, "\(id): \(error ?? [:])")
        }
    }
}
