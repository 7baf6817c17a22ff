import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// `trust list`, `show`, `remove` and `export` print a name exactly as `inspect` does: a
/// subject with an ESC reads `\1B` everywhere, never `\\1B`, in text and in JSON.
@Suite("trust store: names as inspect prints them")
struct TrustNameRenderingTests {
    /// A self-signed CA whose subject CN holds ESC (0x1B) followed by `[31m`, written by the openssl command.
    private func escapeCA(_ directory: TemporaryDirectory) throws -> String {
        let config = "[req]\ndistinguished_name=dn\nprompt=no\nx509_extensions=ext\nstring_mask=utf8only\n"
            + "[dn]\nCN=esc\u{1B}[31mred\nO=Org\n[ext]\nbasicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\n"
        return try TestPKI(in: directory).selfSigned("esc", config: config)
    }

    @Test("text and JSON: trust list/show/remove/export agree with inspect byte for byte",
          arguments: BackendRegistry.standard.names)
    func sameAsInspect(backend: String) throws {
        let directory = try TemporaryDirectory()
        let ca = try escapeCA(directory)
        let store = directory.file("store")
        // What inspect prints, text and JSON.
        let inspect = certkit(["inspect", "--backend", backend, ca])
        try #require(inspect.code == 0, "\(inspect.stderr)")
        let subjectLine = try #require(inspect.stdoutText.split(separator: "\n").first { $0.hasPrefix("  Subject:") })
        let subject = String(subjectLine.dropFirst("  Subject:".count).drop { $0 == " " })
        #expect(subject == "O=Org,CN=esc\\1B[31mred", "inspect's own rendering: one backslash")
        let inspectJSON = try #require(try JSONSerialization.jsonObject(with: Data(certkit(["inspect", "--json", "--backend", backend, ca]).stdout)) as? [String: Any])
        let inspectSubject = try #require((inspectJSON["certificates"] as? [[String: Any]])?.first?["subject"] as? String)
        #expect(inspectSubject == subject)

        #expect(certkit(["trust", "add", "--store", store, ca]).code == 0)
        let sha256 = try TrustFixtures.sha256(ca)
        // Text: the entry's first line is the subject, its issuer line the issuer (self-signed: the same).
        for arguments in [["trust", "list", "--store", store], ["trust", "show", "--store", store, String(sha256.prefix(16))]] {
            let run = certkit(arguments)
            #expect(run.code == 0, "\(arguments): \(run.stderr)")
            let lines = run.stdoutText.split(separator: "\n").map(String.init)
            #expect(lines.first == subject, "\(arguments): \(lines.first ?? "")")
            #expect(lines.contains("  issuer    \(subject)"), "\(arguments)")
        }
        // JSON: the same string as inspect --json, and the same bytes on the wire.
        for arguments in [["trust", "list", "--json", "--store", store], ["trust", "show", "--json", "--store", store, String(sha256.prefix(16))]] {
            let run = certkit(arguments)
            #expect(run.code == 0)
            #expect(run.stdoutText.contains(#""subject": "O=Org,CN=esc\\1B[31mred""#), "\(arguments): \(run.stdoutText)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
            let entry = (object["certificates"] as? [[String: Any]])?.first ?? object
            #expect(entry["subject"] as? String == inspectSubject && entry["issuer"] as? String == inspectSubject)
        }
        // Export: the comment line before the PEM names the subject as inspect does.
        let bundle = certkit(["trust", "export", "--store", store, "--format", "pem-bundle", "-"])
        #expect(bundle.code == 0)
        #expect(bundle.stdoutText.split(separator: "\n").contains { $0 == "# \(subject)" }, "\(bundle.stdoutText)")
        // Remove: the line naming what was removed.
        let removed = certkit(["trust", "remove", "--store", store, String(sha256.prefix(16))])
        #expect(removed.code == 0)
        #expect(removed.stdoutText.hasPrefix("removed \(subject)\n"), "\(removed.stdoutText)")
    }
}
