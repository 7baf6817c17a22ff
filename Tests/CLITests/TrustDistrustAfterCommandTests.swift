import CertKit
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// `certkit trust add --distrust-after`, end to end in process: the store keeps the date (format version 2), `trust
/// list` and `trust show` show it (text and JSON), `evaluate --trust-store` applies it on both backends (the chain's
/// leaf is issued 2030-01-01T00:00:00Z), and a PEM export says in a comment that it cannot carry it.
@Suite("certkit trust add --distrust-after")
struct TrustDistrustAfterCommandTests {
    static func evaluate(_ store: String, backend: String) -> RunResult {
        certkit(TrustFixtures.evaluateArguments + ["--json", "--backend", backend, "--trust-store=\(store)", TrustFixtures.chain],
                environment: [:])
    }

    @Test("a root distrusted after the leaf's issuance fails the chain; at the issuance it does not")
    func endToEnd() throws {
        let directory = try TemporaryDirectory()
        for (date, distrusted) in [("2029-12-31T23:59:59Z", true), ("2030-01-01T00:00:00Z", false)] {
            let store = directory.file("store-\(distrusted)")
            let added = certkit(["trust", "add", "--store", store, "--distrust-after", date, TrustFixtures.root], environment: [:])
            #expect(added.code == 0, "\(added.stderr)")
            #expect(added.stdoutText.hasPrefix("added trustRoot distrust-after=\(date)\nCN=Root RSA\n"), "\(added.stdoutText)")
            for backend in ["openssl", "gnutls"] {
                let run = Self.evaluate(store, backend: backend)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
                if distrusted {
                    #expect(run.code == 10, "\(backend): \(run.stdoutText)")
                    let error = try #require(object["error"] as? [String: Any])
                    #expect(error["check"] as? String == "AnchorTrusted", "\(backend)")
                    #expect(error["rule"] as? String == "certkit.distrust-after", "\(backend)")
                    #expect(error["certificateIndex"] as? Int == 2, "\(backend)")
                } else {
                    #expect(run.code == 0, "\(backend): \(run.stdoutText)")
                    #expect(object["result"] as? String == "proceed", "\(backend)")
                }
            }
            // The file: version 2 and the date, which version 1 cannot hold.
            let file = try #require(FileManager.default.contents(atPath: store + "/trust-store.json"))
            let document = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
            #expect(document["version"] as? Int == 2)
            #expect(String(decoding: file, as: UTF8.self).contains("\"distrustAfter\": \"\(date)\""))
        }
    }

    @Test("trust list and trust show print the date, in text and JSON; a PEM export says it cannot carry it")
    func listShowExport() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        let date = "2031-02-03T04:05:06Z"
        #expect(certkit(["trust", "add", "--store", store, "--result", "unspecified", "--policy", "ssl-server",
                         "--distrust-after", "2031-02-03T05:05:06+01:00", TrustFixtures.root], environment: [:]).code == 0)
        let list = certkit(["trust", "list", "--store", store], environment: [:])
        #expect(list.stdoutText.contains("  setting 1: unspecified ssl-server distrust-after=\(date)\n"), "\(list.stdoutText)")
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(certkit(["trust", "list", "--json", "--store", store], environment: [:]).stdout)) as? [String: Any])
        let certificates = try #require(json["certificates"] as? [[String: Any]])
        let settings = try #require(certificates.first?["settings"] as? [[String: Any]])
        #expect(settings.count == 1)
        #expect(settings.first?["distrustAfter"] as? String == date)
        #expect(settings.first?["result"] as? String == "unspecified")
        let sha256 = try TrustFixtures.sha256(TrustFixtures.root)
        let show = certkit(["trust", "show", "--json", "--store", store, String(sha256.prefix(12))], environment: [:])
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout)) as? [String: Any])
        #expect((shown["settings"] as? [[String: Any]])?.first?["distrustAfter"] as? String == date)
        let showText = certkit(["trust", "show", "--store", store, String(sha256.prefix(12))], environment: [:])
        #expect(showText.stdoutText.contains("distrust-after=\(date)"), "\(showText.stdoutText)")

        // An anchor with a date: the bundle holds it with a comment line saying the date is not enforced there.
        let anchored = directory.file("anchored")
        #expect(certkit(["trust", "add", "--store", anchored, "--distrust-after", date, TrustFixtures.root], environment: [:]).code == 0)
        let export = certkit(["trust", "export", "--store", anchored, "--format", "pem-bundle", "-"], environment: [:])
        #expect(export.code == 0, "\(export.stderr)")
        #expect(export.stdoutText.contains(
            "# distrust-after \(date): not enforced by this PEM, which cannot carry it; only certkit's trust store "
                + "distrusts the leaves this anchor issued after that date\n-----BEGIN CERTIFICATE-----\n"),
                "\(export.stdoutText)")
    }

    @Test("a store where one setting of several has a date is version 2, whatever the others carry")
    func versionTwoWhenAnySettingHasADate() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        // Two certificates: the root without a date, then the sample root with one.
        #expect(certkit(["trust", "add", "--store", store, TrustFixtures.root], environment: [:]).code == 0)
        #expect(certkit(["trust", "add", "--store", store, "--distrust-after", "2031-01-01T00:00:00Z",
                         FixtureLocator.sample("root-ca.pem")], environment: [:]).code == 0)
        let file = try #require(FileManager.default.contents(atPath: store + "/trust-store.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        #expect((document["certificates"] as? [Any])?.count == 2, "\(String(decoding: file, as: UTF8.self))")
        #expect(document["version"] as? Int == 2)
    }

    @Test("a store without a date stays at version 1")
    func versionOneWithoutDate() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        #expect(certkit(["trust", "add", "--store", store, TrustFixtures.root], environment: [:]).code == 0)
        let file = try #require(FileManager.default.contents(atPath: store + "/trust-store.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        #expect(document["version"] as? Int == 1)
    }
}
