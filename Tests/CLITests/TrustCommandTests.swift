import CertKit
import CertKitBackends
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// Runs `certkit` in-process with `environment` (the trust store's default location comes from it).
func certkit(_ arguments: [String], environment: [String: String], stdin: [UInt8] = []) -> RunResult {
    let out = MemorySink()
    let err = MemorySink()
    let code = CertKitCommand.run(
        arguments: arguments, stdin: MemorySource(stdin), stdout: out, stderr: err, registry: .standard,
        environment: environment)
    return RunResult(code: code, stdout: out.bytes, stderr: err.text)
}

/// Files of the conformance fixtures and the demo PKI used by the trust store tests.
enum TrustFixtures {
    static func scenario(_ path: String) -> String { Fixtures.scenariosDirectory.appendingPathComponent(path).path }

    /// leaf.example ← Int RSA ← Root RSA, verified at 2030-06-01 with --host leaf.example.
    static let chain = scenario("valid-chain-rsa/chain.pem")
    static let root = scenario("valid-chain-rsa/root-rsa.pem")
    static let expiredChain = scenario("expired-leaf-rsa/chain.pem")
    static let evaluateArguments = ["evaluate", "--at", "2030-06-01T00:00:00Z", "--host", "leaf.example"]

    /// The PEM file of certificate `index` of `file`, written into `directory`.
    static func single(_ file: String, _ index: Int, in directory: TemporaryDirectory, name: String) throws -> String {
        let certificate = try CertificateBundle.decode(try FixtureLocator.bytes(file)).certificates[index]
        return try directory.write(name, Array(PEM.encode(certificate.derEncoded).utf8))
    }

    static func sha256(_ file: String, _ index: Int = 0) throws -> String {
        let certificate = try CertificateBundle.decode(try FixtureLocator.bytes(file)).certificates[index]
        return Hex.encode(try BackendRegistry.standard.backend(named: "openssl")!.digest(.sha256, of: certificate.derEncoded))
    }
}

/// `certkit trust add/remove/list/show/export`, the store's location and its errors, in process.
@Suite("certkit trust")
struct TrustCommandTests {
    @Test("add, list, show, remove; the default result follows self-signedness")
    func lifecycle() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        let intermediate = try TrustFixtures.single(TrustFixtures.chain, 1, in: directory, name: "int.pem")

        let added = certkit(["trust", "add", "--store", store, TrustFixtures.root])
        #expect(added.code == 0, "\(added.stderr)")
        #expect(added.stdoutText.hasPrefix("added trustRoot\nCN=Root RSA\n  sha256    \(try TrustFixtures.sha256(TrustFixtures.root))\n"))
        let asRoot = certkit(["trust", "add", "--store", store, "--policy", "ssl-client", "--allow", "TemporalValidity", intermediate])
        #expect(asRoot.code == 0, "\(asRoot.stderr)")
        #expect(asRoot.stdoutText.hasPrefix("added trustAsRoot ssl-client allow=TemporalValidity\nCN=Int RSA\n"))

        let list = certkit(["trust", "list", "--store", store])
        #expect(list.code == 0)
        #expect(list.stdoutText.contains("CN=Root RSA\n"))
        #expect(list.stdoutText.contains("  setting 1: trustAsRoot ssl-client allow=TemporalValidity\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(certkit(["trust", "list", "--json", "--store", store]).stdout)) as? [String: Any])
        let certificates = try #require(json["certificates"] as? [[String: Any]])
        #expect(certificates.map { $0["subject"] as? String } == ["CN=Root RSA", "CN=Int RSA"])
        #expect((certificates[1]["settings"] as? [[String: Any]])?.first?["policy"] as? String == "ssl-client")
        #expect(json["store"] as? String == store)

        let prefix = String(try TrustFixtures.sha256(TrustFixtures.root).prefix(10))
        let show = certkit(["trust", "show", "--store", store, "--pem", prefix])
        #expect(show.code == 0)
        #expect(show.stdoutText.hasPrefix("CN=Root RSA\n"))
        #expect(show.stdoutText.contains("-----BEGIN CERTIFICATE-----"))
        #expect(certkit(["trust", "show", "--store", store, "0000"]).code == 1)
        #expect(certkit(["trust", "show", "--store", store, "xyz"]).code == 2)

        let removed = certkit(["trust", "remove", "--store", store, prefix])
        #expect(removed.code == 0)
        #expect(removed.stdoutText.hasPrefix("removed CN=Root RSA\n"))
        let byFile = certkit(["trust", "remove", "--store", store, intermediate])
        #expect(byFile.code == 0, "\(byFile.stderr)")
        #expect(certkit(["trust", "list", "--store", store]).stdoutText.hasSuffix("is empty\n"))
        let again = certkit(["trust", "remove", "--store", store, intermediate])
        #expect(again.code == 1)
        #expect(again.stderr.contains("is not in the trust store"))
    }

    @Test("bad settings are usage errors and change nothing")
    func badSettings() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        let intermediate = try TrustFixtures.single(TrustFixtures.chain, 1, in: directory, name: "int.pem")
        let cases: [([String], String)] = [
            (["--result", "trustRoot", intermediate], "trustRoot is only for a self-signed certificate"),
            (["--result", "trustAsRoot", TrustFixtures.root], "trustAsRoot is only for a certificate that is not self-signed"),
            (["--result", "always", TrustFixtures.root], "--result must be"),
            (["--policy", "email", TrustFixtures.root], "--policy must be"),
            (["--policy", "basic", "--host", "a.example", TrustFixtures.root], "--host limits only"),
            (["--allow", "Signature", TrustFixtures.root], "only recoverable checks"),
            (["--allow", "Nonsense", TrustFixtures.root], "--allow takes a check name"),
            (["--sha256", "abcd", TrustFixtures.root], "--sha256 must be"),
            (["--distrust-after", "2026-13-01", TrustFixtures.root], "--distrust-after must be an ISO 8601 date"),
            (["--distrust-after", "yesterday", TrustFixtures.root], "--distrust-after must be an ISO 8601 date"),
            (["--result", "deny", "--distrust-after", "2026-01-01", TrustFixtures.root], "a deny distrusts every chain"),
            (["http://127.0.0.1:1/root.der"], "needs --sha256"),
            ([], "one FILE, URL or '-' expected"),
        ]
        for (arguments, words) in cases {
            let run = certkit(["trust", "add", "--store", store] + arguments)
            #expect(run.code == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(words), "\(arguments): \(run.stderr)")
            #expect(run.stderrLines.count == 1)
        }
        #expect(!FileManager.default.fileExists(atPath: store))
        // --host alone limits the setting to ssl-server.
        let hosted = certkit(["trust", "add", "--store", store, "--host", "leaf.example", TrustFixtures.root])
        #expect(hosted.stdoutText.hasPrefix("added trustRoot ssl-server host=leaf.example\n"))
    }

    @Test("--sha256 picks the certificate of a file and refuses a mismatch")
    func sha256Selection() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        let intermediateDigest = try TrustFixtures.sha256(TrustFixtures.chain, 1)
        let picked = certkit(["trust", "add", "--store", store, "--sha256", intermediateDigest.uppercased(), TrustFixtures.chain])
        #expect(picked.code == 0, "\(picked.stderr)")
        #expect(picked.stdoutText.contains("CN=Int RSA\n"))
        #expect(!picked.stdoutText.contains("CN=leaf.example"))
        let mismatch = certkit(["trust", "add", "--store", store, "--sha256", String(repeating: "ab", count: 32), TrustFixtures.root])
        #expect(mismatch.code == 1)
        #expect(mismatch.stderr.hasPrefix("certkit: \(TrustFixtures.root): refused: no certificate has SHA-256 abab"))
        // From standard input too.
        let stdin = certkit(["trust", "add", "--store", store, "-"], stdin: try FixtureLocator.bytes(TrustFixtures.root))
        #expect(stdin.code == 0)
        #expect(certkit(["trust", "list", "--json", "--store", store]).stdoutText.contains("CN=Root RSA"))
    }

    @Test("the store: --store, else CERTKIT_STORE, else XDG_DATA_HOME/certkit, else ~/.local/share/certkit")
    func storeLocation() throws {
        let directory = try TemporaryDirectory()
        let home = directory.file("home"), data = directory.file("data"), chosen = directory.file("chosen")
        for (environment, expected) in [
            (["HOME": home], home + "/.local/share/certkit"),
            (["HOME": home, "XDG_DATA_HOME": data], data + "/certkit"),
            (["HOME": home, "XDG_DATA_HOME": data, "CERTKIT_STORE": chosen], chosen),
        ] {
            let run = certkit(["trust", "add", TrustFixtures.root], environment: environment)
            #expect(run.code == 0, "\(run.stderr)")
            #expect(FileManager.default.fileExists(atPath: expected + "/trust-store.json"), "\(environment)")
            let evaluate = certkit(TrustFixtures.evaluateArguments + ["--trust-store", TrustFixtures.chain], environment: environment)
            #expect(evaluate.code == 0, "\(environment): \(evaluate.stdoutText)\(evaluate.stderr)")
            #expect(evaluate.stdoutText.hasPrefix("proceed: trusted"))
        }
        let explicit = directory.file("explicit")
        #expect(certkit(["trust", "add", "--store", explicit, TrustFixtures.root], environment: ["HOME": home]).code == 0)
        #expect(FileManager.default.fileExists(atPath: explicit + "/trust-store.json"))
        let none = certkit(["trust", "list"], environment: [:])
        #expect(none.code == 2)
        #expect(none.stderr.contains("no trust store directory"))
    }

    /// Runs a read, a change and an evaluation against a store file holding `text`: each fails with exit 1 and
    /// one line naming the file, which stays as it was.
    private func expectRefused(_ text: String, words: String) throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        let file = try directory.write("store/trust-store.json", Array(text.utf8))
        for arguments in [
            ["trust", "list", "--store", store],
            ["trust", "add", "--store", store, TrustFixtures.root],
            ["trust", "remove", "--store", store, "abcdef"],
            ["trust", "export", "--store", store, "--format", "pem-bundle", directory.file("bundle.pem")],
            TrustFixtures.evaluateArguments + ["--trust-store=\(store)", TrustFixtures.chain],
        ] {
            let run = certkit(arguments)
            #expect(run.code == 1, "\(arguments): \(run.stdoutText)\(run.stderr)")
            #expect(run.stderr.hasPrefix("certkit: \(file): "), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(words), "\(arguments): \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
        #expect(try FixtureLocator.bytes(file) == Array(text.utf8), "never overwritten")
        #expect(!FileManager.default.fileExists(atPath: directory.file("bundle.pem")))
    }

    @Test("a corrupt store: exit 1, one line naming the file, nothing overwritten")
    func corruptStore() throws {
        try expectRefused("{\"format\": \"certkit-trust-store\", \"version\": 1, \"certificates\": [{", words: "corrupt trust store: not JSON")
        try expectRefused("{\"format\": \"certkit-trust-store\", \"version\": 1, \"certificates\": [{\"sha256\": \"00\"}]}",
                          words: "corrupt trust store: missing key")
    }

    @Test("a store of a newer format: exit 1, one line naming the file, nothing overwritten")
    func newerStore() throws {
        try expectRefused("{\"format\": \"certkit-trust-store\", \"version\": 7, \"certificates\": []}",
                          words: "format version 7 was written by a newer certkit")
    }

    @Test("an unreadable store: exit 1, one line naming the file")
    func unreadableStore() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        try FileManager.default.createDirectory(atPath: store + "/trust-store.json", withIntermediateDirectories: true)
        for arguments in [
            ["trust", "list", "--store", store],
            TrustFixtures.evaluateArguments + ["--trust-store=\(store)", TrustFixtures.chain],
        ] {
            let run = certkit(arguments)
            #expect(run.code == 1)
            #expect(run.stderr == "certkit: \(store)/trust-store.json: cannot read: it is a directory, not a regular file\n")
        }
    }

    @Test("export: a PEM bundle to a file or standard output, skipped certificates named")
    func exportBundle() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        let intermediate = try TrustFixtures.single(TrustFixtures.chain, 1, in: directory, name: "int.pem")
        #expect(certkit(["trust", "add", "--store", store, TrustFixtures.root]).code == 0)
        #expect(certkit(["trust", "add", "--store", store, "--result", "deny", intermediate]).code == 0)
        let bundle = directory.file("bundle.pem")
        let run = certkit(["trust", "export", "--store", store, "--format", "pem-bundle", bundle])
        #expect(run.code == 0)
        #expect(run.stdoutText == "exported 1 anchor to \(bundle) (1 left out)\n")
        #expect(run.stderr.contains("warning: not exported: CN=Int RSA"))
        #expect(run.stderr.contains("it has a deny setting"))
        #expect(try CertificateBundle.decode(try FixtureLocator.bytes(bundle)).certificates == (try sampleOf(TrustFixtures.root)))
        let toStdout = certkit(["trust", "export", "--store", store, "--format", "pem-bundle", "-"])
        #expect(try CertificateBundle.decode(toStdout.stdout).certificates == (try sampleOf(TrustFixtures.root)))
        #expect(certkit(["trust", "export", "--store", store, bundle]).code == 2)
        #expect(certkit(["trust", "export", "--store", store, "--format", "jks", bundle]).code == 2)
        #expect(certkit(["trust", "export", "--store", store, "--format", "openssl-dir", "-"]).code == 2)
        #expect(try directory.contents().filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test("help and usage")
    func help() {
        #expect(certkit(["trust", "--help"]).stdoutText.contains("subcommands:"))
        #expect(certkit(["trust", "add", "--help"]).stdoutText.hasPrefix("usage: certkit trust add"))
        #expect(certkit(["evaluate", "--help"]).stdoutText.contains("--trust-store[=DIR]"))
        #expect(certkit(["trust"]).code == 2)
        let unknown = certkit(["trust", "frobnicate"])
        #expect(unknown.code == 2)
        #expect(unknown.stderr == "certkit: unknown trust subcommand 'frobnicate' (see 'certkit trust --help')\n")
        let near = certkit(["trust", "lsit"])
        #expect(near.code == 2)
        #expect(near.stderr == "certkit: unknown trust subcommand 'lsit'; did you mean 'list'? (see 'certkit trust --help')\n")
        #expect(certkit(["--help"]).stdoutText.contains("  trust "))
    }

    private func sampleOf(_ file: String) throws -> [Certificate] {
        try CertificateBundle.decode(try FixtureLocator.bytes(file)).certificates
    }
}

/// `evaluate --trust-store`: every kind of setting and its scope, on both backends (`--backend both` exits 3
/// when they disagree).
@Suite("evaluate --trust-store")
struct EvaluateTrustStoreTests {
    private func store(_ directory: TemporaryDirectory, _ adds: [[String]]) throws -> String {
        let store = directory.file("store-\(UUID().uuidString)")
        for arguments in adds {
            let run = certkit(["trust", "add", "--store", store] + arguments)
            #expect(run.code == 0, "\(arguments): \(run.stderr)")
        }
        return store
    }

    private func evaluate(_ store: String, _ extra: [String] = [], chain: String = TrustFixtures.chain) -> RunResult {
        certkit(TrustFixtures.evaluateArguments + ["--backend", "both", "--trust-store=\(store)"] + extra + [chain])
    }

    @Test("trustRoot, trustAsRoot, deny, unspecified with allowed errors")
    func results() throws {
        let directory = try TemporaryDirectory()
        let intermediate = try TrustFixtures.single(TrustFixtures.chain, 1, in: directory, name: "int.pem")
        let leaf = try TrustFixtures.single(TrustFixtures.expiredChain, 0, in: directory, name: "expired-leaf.pem")

        let trustRoot = evaluate(try store(directory, [[TrustFixtures.root]]))
        #expect(trustRoot.code == 0, "\(trustRoot.stdoutText)\(trustRoot.stderr)")
        #expect(trustRoot.stdoutText.hasPrefix("proceed: trusted"))
        #expect(trustRoot.stdoutText.contains("both backends agree"))

        let trustAsRoot = evaluate(try store(directory, [[intermediate]]))
        #expect(trustAsRoot.code == 0)
        #expect(trustAsRoot.stdoutText.hasPrefix("proceed: trusted"))

        let deny = evaluate(try store(directory, [[TrustFixtures.root], ["--result", "deny", intermediate]]))
        #expect(deny.code == 12)
        #expect(deny.stdoutText.hasPrefix("deny: errSecTrustSettingDeny"))
        // The store's deny stands with an anchor given on the command line too.
        let denyWithAnchor = evaluate(try store(directory, [["--result", "deny", intermediate]]), ["--anchors", TrustFixtures.root])
        #expect(denyWithAnchor.code == 12)

        let expiredStore = try store(directory, [[TrustFixtures.root]])
        #expect(evaluate(expiredStore, chain: TrustFixtures.expiredChain).code == 10)
        let allowed = try store(directory, [[TrustFixtures.root], ["--result", "unspecified", "--allow", "TemporalValidity", leaf]])
        let accepted = evaluate(allowed, chain: TrustFixtures.expiredChain)
        #expect(accepted.code == 0, "\(accepted.stdoutText)")
        #expect(accepted.stdoutText.hasPrefix("proceed: trusted"))
        // Without a trusted root, an allowed error alone gives unspecified through a command-line anchor.
        let onlyAllowed = try store(directory, [["--result", "unspecified", "--allow", "TemporalValidity", leaf]])
        let unspecified = evaluate(onlyAllowed, ["--anchors", TrustFixtures.root], chain: TrustFixtures.expiredChain)
        #expect(unspecified.stdoutText.hasPrefix("unspecified: trusted"), "\(unspecified.stdoutText)")
    }

    @Test("a setting scoped to another host or policy does not apply")
    func scopes() throws {
        let directory = try TemporaryDirectory()
        let intermediate = try TrustFixtures.single(TrustFixtures.chain, 1, in: directory, name: "int.pem")
        let forHost = try store(directory, [["--host", "leaf.example", TrustFixtures.root]])
        #expect(evaluate(forHost).code == 0)
        let otherHost = try store(directory, [["--host", "other.example", TrustFixtures.root]])
        let run = evaluate(otherHost)
        #expect(run.code == 10)
        #expect(run.stdoutText.hasPrefix("recoverableTrustFailure: errSecNotTrusted"))
        let clientOnly = try store(directory, [["--policy", "ssl-client", TrustFixtures.root]])
        #expect(evaluate(clientOnly).code == 10)
        let basicOnly = try store(directory, [["--policy", "basic", TrustFixtures.root]])
        #expect(evaluate(basicOnly).code == 10)
        let basic = certkit(["evaluate", "--at", "2030-06-01T00:00:00Z", "--backend", "both", "--trust-store=\(basicOnly)", TrustFixtures.chain])
        #expect(basic.code == 0, "\(basic.stdoutText)")
        let denyElsewhere = try store(directory, [[TrustFixtures.root], ["--result", "deny", "--host", "other.example", intermediate]])
        #expect(evaluate(denyElsewhere).code == 0)
        let otherHostRun = certkit(
            Array(TrustFixtures.evaluateArguments.dropLast(2))
                + ["--host", "other.example", "--intermediates", intermediate, "--trust-store=\(denyElsewhere)",
                   TrustFixtures.scenario("valid-chain-rsa/chain.pem")])
        #expect(otherHostRun.code == 12, "the deny applies to its host (\(otherHostRun.stdoutText))")
    }

    @Test("--trust-store alone is the default store; --trust-store=DIR and --store DIR name one; a missing one has its own message")
    func combination() throws {
        let directory = try TemporaryDirectory()
        let intermediate = try TrustFixtures.single(TrustFixtures.chain, 1, in: directory, name: "int.pem")
        let store = try store(directory, [[TrustFixtures.root]])
        #expect(evaluate(store, ["--distrust", intermediate]).code == 12)
        // --store DIR is --trust-store=DIR.
        let named = certkit(TrustFixtures.evaluateArguments + ["--store", store, TrustFixtures.chain])
        #expect(named.code == 0, "\(named.stderr)")
        #expect(named.stdoutText.hasPrefix("proceed: trusted"))
        // --trust-store never takes the next argument: an existing directory after it is a second CHAIN.
        let spaced = certkit(TrustFixtures.evaluateArguments + ["--trust-store", store, TrustFixtures.chain],
                             environment: ["CERTKIT_STORE": store])
        #expect(spaced.code == 2)
        #expect(spaced.stderr == "certkit: one CHAIN file expected, got 2 (a trust store is named by --trust-store=DIR or --store DIR) (see 'certkit evaluate --help')\n")
        let connect = certkit(["connect", "--trust-store", store, "127.0.0.1:9"], environment: ["CERTKIT_STORE": store])
        #expect(connect.code == 2)
        #expect(connect.stderr == "certkit: one HOST[:PORT] expected, got 2 (a trust store is named by --trust-store=DIR or --store DIR) (see 'certkit connect --help')\n")
        // A file after --trust-store is the CHAIN, and the default store (here from CERTKIT_STORE) is used.
        let flag = certkit(TrustFixtures.evaluateArguments + ["--trust-store", TrustFixtures.chain],
                           environment: ["CERTKIT_STORE": store])
        #expect(flag.stdoutText.hasPrefix("proceed: trusted"), "\(flag.stderr)")
        // A store that does not exist is named, whichever way it was chosen; nothing is created.
        let missing = directory.file("not-yet")
        for arguments in [["--trust-store=\(missing)"], ["--store", missing]] {
            let run = certkit(TrustFixtures.evaluateArguments + ["--anchors", TrustFixtures.root] + arguments + [TrustFixtures.chain])
            #expect(run.code == 1, "\(arguments)")
            #expect(run.stderr == "certkit: \(missing): no such trust store directory ('certkit trust add --store \(missing) FILE' creates it)\n")
            #expect(run.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
        let noDefault = certkit(TrustFixtures.evaluateArguments + ["--trust-store", TrustFixtures.chain],
                                environment: ["CERTKIT_STORE": missing])
        #expect(noDefault.code == 1)
        #expect(noDefault.stderr == "certkit: \(missing): the default trust store does not exist yet ('certkit trust add FILE' creates it)\n")
        let file = certkit(TrustFixtures.evaluateArguments + ["--store", TrustFixtures.root, TrustFixtures.chain])
        #expect(file.code == 1)
        #expect(file.stderr == "certkit: \(TrustFixtures.root): not a directory (a trust store is a directory)\n")
        // One store at a time, each option once.
        #expect(certkit(TrustFixtures.evaluateArguments + ["--store", store, "--trust-store=\(store)", TrustFixtures.chain]).code == 2)
        #expect(certkit(TrustFixtures.evaluateArguments + ["--trust-store", "--trust-store", TrustFixtures.chain]).code == 2)
    }
}
