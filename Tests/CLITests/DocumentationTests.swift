import CertKitTestSupport
import Foundation
import Testing

/// What the documents promise stays true: the README's package list is the one Scripts/bootstrap.sh installs, and
/// every key `evaluate --json` and `inspect --json` write is listed in Docs/CLI.md.
@Suite("documentation")
struct DocumentationTests {
    static func text(_ relative: String) throws -> String {
        try String(contentsOf: FixtureLocator.url(relative), encoding: .utf8)
    }

    /// The words of the bash array `name=(...)` in `script`.
    static func array(_ name: String, in script: String) throws -> [String] {
        let start = try #require(script.range(of: "\n\(name)=("), "bootstrap.sh has no \(name)")
        let end = try #require(script[start.upperBound...].firstIndex(of: ")"))
        return script[start.upperBound..<end].split(whereSeparator: \.isWhitespace).map(String.init)
    }

    @Test("the README names exactly the packages Scripts/bootstrap.sh installs, in the same two groups")
    func packages() throws {
        let script = try Self.text("Scripts/bootstrap.sh")
        let build = try Self.array("build_packages", in: script), test = try Self.array("test_packages", in: script)
        #expect(build.contains("libssl-dev") && test.contains("fish"), "\(build) \(test)")

        let readme = try Self.text("README.md")
        let requirements = try #require(readme.range(of: "Requirements: "), "the README has a Requirements line")
        // The first two `code` spans of the paragraph: the build group, then the test group.
        let paragraph = readme[requirements.upperBound...].prefix { $0 != "#" }
        let spans = paragraph.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { $0.element.split(whereSeparator: \.isWhitespace).map(String.init) }
        try #require(spans.count >= 2)
        #expect(spans[0] == build, "README: \(spans[0]), bootstrap.sh: \(build)")
        #expect(spans[1] == test, "README: \(spans[1]), bootstrap.sh: \(test)")
    }

    /// Every object key of a JSON document.
    static func keys(_ value: Any) -> Set<String> {
        switch value {
        case let object as [String: Any]:
            object.keys.reduce(into: Set(object.keys)) { $0.formUnion(keys(object[$1]!)) }
        case let array as [Any]:
            array.reduce(into: Set<String>()) { $0.formUnion(keys($1)) }
        default:
            []
        }
    }

    /// The keys of `run`'s standard output, one JSON document per line or one in all.
    static func keys(of run: RunResult, _ label: String) throws -> Set<String> {
        #expect(!run.stdout.isEmpty, "\(label): \(run.stderr)")
        let lines = run.stdoutText.hasPrefix("{\n") ? [run.stdoutText] : run.stdoutText.split(separator: "\n").map(String.init)
        return try lines.reduce(into: Set<String>()) { keys, line in
            keys.formUnion(Self.keys(try JSONSerialization.jsonObject(with: Data(line.utf8))))
        }
    }

    /// The section of Docs/CLI.md that starts at `heading`, up to the next heading of its level or higher.
    static func section(_ heading: String) throws -> String {
        let text = try Self.text("Docs/CLI.md")
        let start = try #require(text.range(of: "\n" + heading + "\n"), "Docs/CLI.md has no \(heading)")
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.range(of: "\n### ")?.lowerBound ?? rest.endIndex
        let next = [rest.range(of: "\n## ")?.lowerBound, rest.range(of: "\n### ")?.lowerBound].compactMap { $0 }.min()
        return String(rest[..<(next ?? end)])
    }

    @Test("every key of evaluate --json and inspect --json is listed in Docs/CLI.md")
    func jsonKeys() throws {
        let root = FixtureLocator.sample("root-ca.pem"), chain = FixtureLocator.sample("server-chain.pem")
        let common = ["evaluate", "--json", "--anchors", root, "--at", "2030-06-01"]
        var evaluate = Set<String>()
        evaluate.formUnion(try Self.keys(of: certkit(common + ["--host", "localhost", chain]), "trusted"))
        evaluate.formUnion(try Self.keys(of: certkit(common + ["--host", "other.example", chain]), "wrong host"))
        evaluate.formUnion(try Self.keys(of: certkit(common + ["--host", "localhost", "--backend", "both", chain]), "both"))
        evaluate.formUnion(try Self.keys(of: certkit(common + ["--host", "localhost", "--require-revocation", chain]), "revocation"))
        evaluate.formUnion(try Self.keys(
            of: certkit(common + ["--policy", "ssl-client", "--host", "a.example", "--host", "localhost", chain]), "identities"))
        let der = Data(try sampleCertificates("server.pem")[0].derEncoded).base64EncodedString()
        let line = #"{"id": "x", "chain": ["\#(der)"], "host": "localhost"}"# + "\n"
        evaluate.formUnion(try Self.keys(
            of: certkit(common + ["--intermediates", FixtureLocator.sample("intermediate-ca.pem"), "--batch", "-"],
                        stdin: Array(line.utf8)), "batch"))
        #expect(evaluate.isSuperset(of: ["result", "error", "chain", "failedChecks", "revocation", "agree", "backends", "id", "identities"]))
        let evaluateDocs = try Self.section("### The keys of `evaluate --json`")
        for key in evaluate.sorted() {
            #expect(evaluateDocs.contains("`\(key)`"), "evaluate --json writes \"\(key)\"; Docs/CLI.md does not list it")
        }

        let inspect = try Self.keys(of: certkit(["inspect", "--json", FixtureLocator.sample("server-chain.pem")]), "inspect")
            .union(try Self.keys(of: certkit([
                "inspect", "--json", "--password-file", FixtureLocator.fixture("identity/password.txt"),
                FixtureLocator.fixture("identity/client.p12"),
            ]), "inspect p12"))
        #expect(inspect.isSuperset(of: ["certificates", "publicKey", "privateKeys", "extensions"]))
        let inspectDocs = try Self.section("### The keys of `inspect --json`")
        for key in inspect.sorted() where key != "certificates" {
            #expect(inspectDocs.contains("`\(key)`"), "inspect --json writes \"\(key)\"; Docs/CLI.md does not list it")
        }
    }
}
