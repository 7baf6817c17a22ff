import CertKit
import CertKitBackends
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// Names from certificates never reach the terminal raw: `inspect` and `evaluate`, text and
/// JSON, on both backends, with the `names-hostile-san` fixture (the names fixture set).
/// Its leaf has ESC sequences in a dNSName and a URI, DEL and backspaces in an rfc822Name, a U+202E in a
/// directoryName, and a U+202E, a C1 CSI and bidi isolates in its subject.
@Suite("Output escaping")
struct OutputEscapingTests {
    static let backends = BackendRegistry.standard.names
    static let scenario = Fixtures.scenariosDirectory.appendingPathComponent("names-hostile-san")
    static let chain = scenario.appendingPathComponent("chain.pem").path
    static let anchor = scenario.appendingPathComponent("names-root.pem").path

    /// Scalars that must not appear raw in output (the line breaks of the output itself excepted).
    static func rawUnsafe(_ text: String) -> [String] {
        text.unicodeScalars.filter { $0 != "\n" && DisplayText.needsEscaping($0) }.map { "U+" + String($0.value, radix: 16) }
    }

    @Test("inspect text escapes every name", arguments: backends)
    func inspectText(backend: String) {
        let result = certkit(["inspect", "--backend", backend, Self.chain])
        #expect(result.code == 0, "\(result.stderr)")
        let text = result.stdoutText
        #expect(Self.rawUnsafe(text).isEmpty, "\(Self.rawUnsafe(text))")
        #expect(text.contains("DNS:evil.example\\x1b[2K\\x1b[1Ggood.example.com"))
        #expect(text.contains("URI:https://good.example.com/\\x1b]8;;https://evil.example\\x07link"))
        #expect(text.contains("email:user\\x7f\\x08\\x08@good.example.com"))
        #expect(text.contains("DirName:CN=dir\\E2\\80\\AEname\\E2\\80\\8F"))
        let subject = text.split(separator: "\n").first { $0.hasPrefix("  Subject:") }
        #expect(subject?.hasSuffix(" O=Org\\C2\\9B31m\\E2\\81\\A6isolated\\E2\\81\\A9,CN=good.example.com\\E2\\80\\AEmoc.live") == true)
    }

    @Test("inspect --json holds no raw control or bidi character, and the same display strings", arguments: backends)
    func inspectJSON(backend: String) throws {
        let result = certkit(["inspect", "--json", "--backend", backend, Self.chain])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(Self.rawUnsafe(result.stdoutText).isEmpty, "\(Self.rawUnsafe(result.stdoutText))")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let leaf = try #require((document["certificates"] as? [[String: Any]])?.first)
        let names = try #require(leaf["subjectAltNames"] as? [String])
        #expect(names.contains("DNS:evil.example\\x1b[2K\\x1b[1Ggood.example.com"))
        #expect(names.contains("DirName:CN=dir\\E2\\80\\AEname\\E2\\80\\8F"))
        #expect((leaf["subject"] as? String)?.contains("CN=good.example.com\\E2\\80\\AEmoc.live") == true)
        for value in names + [leaf["subject"] as? String ?? ""] {
            #expect(Self.rawUnsafe(value).isEmpty, "\(value)")
        }
    }

    @Test("evaluate escapes the names its message quotes, in text and JSON", arguments: backends)
    func evaluate(backend: String) throws {
        let base = ["evaluate", "--backend", backend, "--anchors", Self.anchor, "--at", "2030-06-01T00:00:00Z",
                    "--host", "good.example.com"]
        let text = certkit(base + [Self.chain])
        #expect(text.code == 10, "\(text.stdoutText)\(text.stderr)")
        #expect(Self.rawUnsafe(text.stdoutText).isEmpty, "\(Self.rawUnsafe(text.stdoutText))")
        #expect(text.stdoutText.contains("\"good.example.com\\u{202e}moc.live\" is not valid for \"good.example.com\""),
                "\(text.stdoutText)")

        let json = certkit(base + ["--json", Self.chain])
        #expect(json.code == 10)
        #expect(Self.rawUnsafe(json.stdoutText).isEmpty, "\(Self.rawUnsafe(json.stdoutText))")
        // JSON keeps the exact message, with the override written as a JSON escape.
        #expect(json.stdoutText.contains("good.example.com\\u202emoc.live"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        let message = try #require((document["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("good.example.com\u{202E}moc.live"))
    }

    @Test("an error line quoting a file name is escaped")
    func errorLine() {
        let result = certkit(["inspect", "/nonexistent/\u{1B}[2Kok\u{202E}.pem"])
        #expect(result.code == 1)
        #expect(Self.rawUnsafe(result.stderr).isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains("/nonexistent/\\x1b[2Kok\\u{202e}.pem"), "\(result.stderr)")
        #expect(result.stderrLines.count == 1)
    }

    @Test("JSON strings escape controls, bidi and format characters as \\u escapes")
    func jsonStrings() {
        let value = JSONValue.string("a\u{1B}\u{7F}\u{9B}\u{202E}\u{2028}\u{E0041}\t\"\\é")
        #expect(value.rendered == "\"a\\u001b\\u007f\\u009b\\u202e\\u2028\\udb40\\udc41\\t\\\"\\\\é\"\n")
    }
}
