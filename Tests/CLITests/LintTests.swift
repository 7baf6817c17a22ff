import CertKit
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// `certkit lint`, through the built binary: every target's verdict on chains made to break one target's rules
/// (or five rules at once), on both backends; the JSON document; exit codes; the fix hints.
@Suite("certkit lint", .serialized)
struct LintTests {
    /// One run of the binary: its exit code, standard output and error.
    struct Run {
        var code: Int32
        var stdout: String
        var stderr: String

        /// The `--json` document.
        var document: [String: Any] {
            get throws {
                try #require(JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
            }
        }

        /// Target name → (trusted, the rule ids with their certificate index, `1:certkit.tls-sha1`).
        var targets: [String: (trusted: Bool, rules: Set<String>)] {
            get throws {
                let targets = try #require(try document["targets"] as? [[String: Any]])
                var table: [String: (Bool, Set<String>)] = [:]
                for target in targets {
                    let findings = target["findings"] as? [[String: Any]] ?? []
                    table[target["name"] as? String ?? ""] = (
                        target["trusted"] as? Bool ?? false,
                        Set(findings.map { "\(($0["certificateIndex"] as? Int).map(String.init) ?? "-"):\($0["rule"] as? String ?? "")" }))
                }
                return table
            }
        }
    }

    static func run(_ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:]) throws -> Run {
        let executable = try #require(FixtureLocator.product("certkit"), "build the certkit product first")
        let result = try ProcessRunner.run(
            [executable] + arguments, input: .bytes(stdin), environment: ["NO_COLOR": "1"].merging(environment) { $1 })
        return Run(code: result.status, stdout: String(decoding: result.stdout, as: UTF8.self), stderr: result.stderrText)
    }

    let pki: LintTestPKI

    init() throws { pki = try LintTestPKI() }

    private func lint(_ chain: String, host: String = "leaf.example", _ extra: [String] = []) throws -> Run {
        try Self.run(["lint", "--anchors", pki.file("root.pem"), "--host", host, "--json"] + extra + [pki.file(chain)])
    }

    static let backends = ["openssl", "gnutls"]
    static let coreTargets = ["ios", "macos", "chrome", "firefox", "rfc5280"]

    @Test("a chain that meets every rule: every target trusts it, exit 0, on both backends")
    func control() throws {
        for backend in Self.backends {
            let run = try lint("control.pem", ["--backend", backend])
            #expect(run.code == 0, "\(backend): \(run.stdout) \(run.stderr)")
            let targets = try run.targets
            #expect(Set(targets.keys) == Set(LintTarget.names))
            for (name, verdict) in targets {
                #expect(verdict.trusted && verdict.rules.isEmpty, "\(backend) \(name): \(verdict.rules)")
            }
        }
    }

    @Test("five problems at once: every target that cares lists every one, on both backends")
    func fiveProblems() throws {
        // The system roots are the anchors here (SSL_CERT_FILE, no --anchors), as for a public server.
        for backend in Self.backends {
            let run = try Self.run(
                ["lint", "--host", "other.example", "--json", "--backend", backend, pki.file("five.pem")],
                environment: ["SSL_CERT_FILE": pki.file("root.pem")])
            #expect(run.code == 10)
            let targets = try run.targets
            for name in Self.coreTargets {
                let verdict = try #require(targets[name])
                #expect(!verdict.trusted)
                // Host mismatch, missing serverAuth, the SHA-1-signed intermediate, the missing intermediate.
                for rule in ["0:certkit.peer-name", "0:certkit.eku-purpose", "1:certkit.tls-sha1", "1:certkit.missing-intermediate"] {
                    #expect(verdict.rules.contains(rule), "\(backend) \(name) lacks \(rule): \(verdict.rules)")
                }
            }
            // The web PKI targets also name their own rules for the leaf's EKU and the SHA-1 signature.
            for name in ["chrome", "firefox"] {
                let verdict = try #require(targets[name])
                #expect(verdict.rules.isSuperset(of: ["0:webpki.leaf-eku", "1:webpki.signature-digest"]), "\(verdict.rules)")
            }
            // The libraries check neither the host nor the purpose nor SHA-1 (as the audit mode runs them): they
            // refuse the chain for its missing issuer alone.
            for name in ["openssl", "gnutls"] {
                let verdict = try #require(targets[name])
                #expect(!verdict.trusted)
                #expect(verdict.rules.contains { $0.hasSuffix("library.noIssuer") }, "\(name): \(verdict.rules)")
                #expect(!verdict.rules.contains { $0.contains("certkit.") })
            }
            // The 500-day validity is an issuance finding (a leaf issued now may have at most 200 days, or 398
            // before 2026-03-15), and so is the missing serverAuth.
            let document = try run.document
            let issuance = try #require(document["issuance"] as? [[String: Any]])
            let issued = Set(issuance.map { "\($0["certificateIndex"] as? Int ?? -1):\($0["rule"] as? String ?? "")" })
            #expect(issued.isSuperset(of: ["0:br.validity-period", "0:br.leaf-server-auth"]), "\(issued)")
            let targetList = try #require(document["targets"] as? [[String: Any]])
            let firstFindings = try #require(targetList[0]["findings"] as? [[String: Any]])
            let missing = firstFindings.first { $0["rule"] as? String == "certkit.missing-intermediate" }
            #expect((missing?["detail"] as? String)?.contains("http://127.0.0.1:9/int2.der") == true)
            #expect(missing?["hint"] as? String == "add the intermediate to the chain the server sends")
        }
    }

    @Test("the text table lists the same five problems, one row each, with fixes")
    func fiveProblemsText() throws {
        let run = try Self.run(
            ["lint", "--host", "other.example", pki.file("five.pem")], environment: ["SSL_CERT_FILE": pki.file("root.pem")])
        #expect(run.code == 10)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("trusted ") && $0.contains("✗") && !$0.contains("✓") })
        for rule in ["[0] certkit.peer-name", "[0] certkit.eku-purpose", "[1] certkit.tls-sha1", "[1] certkit.missing-intermediate"] {
            let row = try #require(lines.first { $0.hasPrefix(rule + " ") }, "no row \(rule):\n\(run.stdout)")
            // ✗ under the five core targets, · under the two libraries.
            #expect(row.filter { $0 == "✗" }.count == 5 && row.filter { $0 == "·" }.count == 2, "\(row)")
        }
        #expect(run.stdout.contains("fix: re-sign the certificate with SHA-256"))
        #expect(run.stdout.contains("✗ [0] br.validity-period"))
        #expect(!run.stdout.contains("\u{1B}["), "NO_COLOR: no escape codes")
    }

    /// Asserts that exactly `refusing` refuse `chain` (the others trust it), each refusing target naming `rule`.
    private func onlyRefusing(
        _ refusing: Set<String>, _ chain: String, rule: String, _ extra: [String] = []
    ) throws {
        for backend in Self.backends {
            let run = try lint(chain, ["--backend", backend] + extra)
            #expect(run.code == 10, "\(chain) \(backend): \(run.stderr)")
            for (name, verdict) in try run.targets {
                if refusing.contains(name) {
                    #expect(!verdict.trusted, "\(chain) \(backend): \(name) trusts it")
                    #expect(verdict.rules.contains { $0.hasSuffix(":" + rule) }, "\(chain) \(name): \(verdict.rules)")
                } else {
                    #expect(verdict.trusted && verdict.rules.isEmpty, "\(chain) \(backend): \(name) refuses: \(verdict.rules)")
                }
            }
        }
    }

    @Test("ios and macos alone: a leaf valid for 826 days under an app's own anchor")
    func appleOnly() throws {
        try onlyRefusing(["ios", "macos"], "apple-only.pem", rule: "apple.validity-825-days")
    }

    @Test("chrome and firefox alone: a commonName that is not among the subjectAltNames")
    func webPKIOnly() throws {
        try onlyRefusing(["chrome", "firefox"], "webpki-only.pem", rule: "webpki.cn-in-san")
    }

    @Test("rfc5280 alone: name constraints that are not critical")
    func rfc5280Only() throws {
        try onlyRefusing(["rfc5280"], "rfc5280-only.pem", rule: "rfc5280.name-constraints-critical")
    }

    @Test("openssl alone: judged at the leaf's notAfter second, which OpenSSL counts as expired")
    func opensslOnly() throws {
        let notAfter = try pki.certificate("leaf.pem").notAfter
        try onlyRefusing(["openssl"], "control.pem", rule: "library.expired", ["--at", ISO8601Text.timestamp(notAfter)])
    }

    @Test("gnutls alone: a CA that excludes a directoryName (GnuTLS 3.7 does not implement them)")
    func gnutlsOnly() throws {
        try onlyRefusing(["gnutls"], "gnutls-only.pem", rule: "library.signerConstraints")
    }

    @Test("another candidate path is listed with what it breaks: the same intermediate signed with SHA-1")
    func otherPaths() throws {
        for backend in Self.backends {
            let run = try lint("two-paths.pem", ["--backend", backend])
            #expect(run.code == 0, "\(run.stdout)")
            let targets = try #require(try run.document["targets"] as? [[String: Any]])
            for target in targets {
                let name = target["name"] as? String ?? ""
                let others = target["otherPaths"] as? [[String: Any]] ?? []
                if target["mode"] as? String == "library" {
                    #expect(others.isEmpty)
                    continue
                }
                let other = try #require(others.first, "\(backend) \(name): no other path")
                #expect(other["trusted"] as? Bool == false)
                let rules = (other["findings"] as? [[String: Any]] ?? []).map {
                    "\($0["certificateIndex"] as? Int ?? -1):\($0["rule"] as? String ?? "")"
                }
                #expect(rules.contains("1:certkit.tls-sha1"), "\(name): \(rules)")
                let chain = other["chain"] as? [[String: Any]] ?? []
                #expect(chain.count == 3)
            }
        }
        let text = try Self.run(["lint", "--anchors", pki.file("root.pem"), "--host", "leaf.example", pki.file("two-paths.pem")])
        // One line per distinct path and set of broken rules: the web PKI targets name their own rule too.
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let apple = try #require(lines.firstIndex {
            $0 == "other path (ios, macos, rfc5280): [0] CN=leaf.example ← [1] CN=Lint Test Int ← [2] CN=Lint Test Root"
        }, "\(text.stdout)")
        #expect(lines[apple + 1] == "    ✗ [1] certkit.tls-sha1")
        let web = try #require(lines.firstIndex { $0.hasPrefix("other path (chrome, firefox): ") })
        #expect(lines[web + 1] == "    ✗ [1] certkit.tls-sha1, [1] webpki.signature-digest")
    }

    @Test("--targets chooses the columns; exit 0 when every requested target trusts")
    func targetsOption() throws {
        let run = try lint("apple-only.pem", ["--targets", "chrome,rfc5280,gnutls"])
        #expect(run.code == 0)
        #expect(Set(try run.targets.keys) == ["chrome", "rfc5280", "gnutls"])
        #expect(try lint("apple-only.pem", ["--targets", "macos"]).code == 10)
    }

    @Test("usage and input errors: 2 and 1")
    func errors() throws {
        let unknown = try lint("control.pem", ["--targets", "safari"])
        #expect(unknown.code == 2 && unknown.stderr.contains("unknown target 'safari'"))
        #expect(try lint("control.pem", ["--backend", "both"]).code == 2)
        #expect(try lint("control.pem", ["--profile", "webpki"]).code == 2)  // each target has its own profile
        #expect(try Self.run(["lint", "--anchors", pki.file("root.pem"), "/nonexistent/chain.pem"]).code == 1)
        #expect(try Self.run(["lint", "--anchors", pki.file("root.pem")]).code == 2)
    }

    @Test("the JSON document has exactly the documented keys")
    func jsonSchema() throws {
        let run = try Self.run(
            ["lint", "--host", "other.example", "--json", pki.file("five.pem")],
            environment: ["SSL_CERT_FILE": pki.file("root.pem")])
        let document = try run.document
        #expect(Set(document.keys) == [
            "allTrusted", "anchorSources", "chain", "host", "issuance", "schemaVersion", "targets", "verifyDate",
        ])
        #expect(document["schemaVersion"] as? Int == 1 && document["allTrusted"] as? Bool == false)
        let chain = try #require(document["chain"] as? [[String: Any]])
        #expect(Set(chain[0].keys) == ["index", "subject", "issuer", "serial", "notBefore", "notAfter"])
        let targets = try #require(document["targets"] as? [[String: Any]])
        #expect(targets.map { $0["name"] as? String ?? "" } == LintTarget.names)
        for target in targets {
            #expect(Set(target.keys) == [
                "name", "profile", "ruleSets", "mode", "backend", "trusted", "result", "pathsTried", "chain", "findings",
                "otherPaths",
            ])
            for finding in target["findings"] as? [[String: Any]] ?? [] {
                #expect(Set(finding.keys) == ["rule", "certificateIndex", "subject", "check", "detail", "hint"])
            }
        }
        #expect(targets.first { $0["name"] as? String == "openssl" }?["mode"] as? String == "library")
        let issuance = try #require(document["issuance"] as? [[String: Any]])
        #expect(!issuance.isEmpty)
        for finding in issuance {
            #expect(Set(finding.keys) == ["rule", "certificateIndex", "subject", "check", "detail", "hint"])
        }
        // Docs/CLI.md lists every key.
        let docs = String(decoding: try FixtureLocator.bytes(FixtureLocator.url("Docs/CLI.md").path), as: UTF8.self)
        let section = try #require(docs.range(of: "### The keys of `lint --json`")).upperBound
        let table = docs[section...].prefix(4_000)
        for key in ["allTrusted", "anchorSources", "chain", "host", "issuance", "schemaVersion", "targets", "verifyDate",
                    "skippedCertificates", "name", "profile", "ruleSets", "mode", "backend", "trusted", "result",
                    "pathsTried", "findings", "otherPaths", "rule", "certificateIndex", "subject", "check", "detail", "hint",
                    "id"] {
            #expect(table.contains("`\(key)`"), "Docs/CLI.md does not list \(key)")
        }
    }

    @Test("--batch: one JSON line per chain with its id; exit 10 when some target refuses some chain")
    func batch() throws {
        let control = try pki.pki.bytes("control.pem")
        let apple = try pki.pki.bytes("apple-only.pem")
        func line(_ id: String, _ pem: [UInt8], host: String) throws -> String {
            let object: [String: Any] = ["id": id, "chain": [String(decoding: pem, as: UTF8.self)], "host": host]
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        let input = try [line("a", control, host: "leaf.example"), line("b", apple, host: "leaf.example"),
                         "{\"id\": \"c\", \"chain\": [\"x\"], \"hostname\": 1}"].joined(separator: "\n") + "\n"
        let run = try Self.run(
            ["lint", "--anchors", pki.file("root.pem"), "--batch", "-", "--jobs", "2"], stdin: Array(input.utf8))
        let lines = run.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 3)
        #expect(lines[0]?["id"] as? String == "a" && lines[0]?["allTrusted"] as? Bool == true)
        #expect(lines[1]?["id"] as? String == "b" && lines[1]?["allTrusted"] as? Bool == false)
        #expect(((lines[2]?["error"] as? [String: Any])?["code"] as? String) == "unknown-key")
        #expect(run.code == 1)
        let good = try Self.run(
            ["lint", "--anchors", pki.file("root.pem"), "--batch", "-"],
            stdin: Array((try line("a", control, host: "leaf.example") + "\n" + line("b", apple, host: "leaf.example") + "\n").utf8))
        #expect(good.code == 10)
    }

    @Test("connect --lint lints the chain the server sent")
    func connectLint() throws {
        let server = try TLSTestServer(
            .openssl, certificate: pki.file("leaf-cn.pem"), key: pki.file("leaf.key"), chain: [pki.file("int.pem")])
        defer { server.stop() }
        let run = try Self.run([
            "connect", "127.0.0.1:\(server.port)", "--servername", "leaf.example", "--anchors", pki.file("root.pem"),
            "--lint", "--json",
        ])
        #expect(run.code == 10, "\(run.stderr)")
        let targets = try run.targets
        let chrome = try #require(targets["chrome"])
        #expect(chrome.rules.contains("0:webpki.cn-in-san"))
        let ios = try #require(targets["ios"]), openssl = try #require(targets["openssl"])
        #expect(ios.trusted && openssl.trusted)
        #expect(try Self.run(["connect", "127.0.0.1:\(server.port)", "--targets", "ios"]).code == 2)
    }

    @Test("on a terminal the marks are coloured, unless NO_COLOR is set; into a pipe never")
    func terminalColour() throws {
        let executable = try #require(FixtureLocator.product("certkit"), "build the certkit product first")
        let command = "'\(executable)' lint --anchors '\(pki.file("root.pem"))' --host leaf.example --targets ios,openssl '\(pki.file("apple-only.pem"))'"
        let tty = try ProcessRunner.run(["env", "-u", "NO_COLOR", "script", "-q", "-e", "-c", command, "/dev/null"])
        #expect(tty.status == 10, "\(tty.stderrText)")
        #expect(tty.stdoutText.contains("\u{1B}[31m✗\u{1B}[0m") && tty.stdoutText.contains("\u{1B}[32m✓\u{1B}[0m"))
        let noColour = try ProcessRunner.run(["env", "NO_COLOR=1", "script", "-q", "-e", "-c", command, "/dev/null"])
        #expect(noColour.stdoutText.contains("✗") && !noColour.stdoutText.contains("\u{1B}["))
        let piped = try ProcessRunner.run(["env", "-u", "NO_COLOR", executable, "lint", "--anchors", pki.file("root.pem"),
                                           "--host", "leaf.example", pki.file("apple-only.pem")])
        #expect(piped.stdoutText.contains("✗") && !piped.stdoutText.contains("\u{1B}["))
    }

    @Test("help, the man page and the completions list lint and its options")
    func helpAndCompletion() throws {
        #expect(certkit(["--help"]).stdoutText.contains("lint"))
        let help = certkit(["lint", "--help"])
        #expect(help.code == 0 && help.stdoutText.contains("--targets LIST"))
        #expect(certkit(["help", "--man"]).stdoutText.contains("lint"))
        for shell in ["bash", "zsh", "fish"] {
            let script = certkit(["help", "--completion", shell]).stdoutText
            #expect(script.contains("lint") && script.contains("targets"), "\(shell)")
        }
    }
}

/// The fix hints: one for every rule the core defines, every issuance rule and every library status.
@Suite("lint fix hints")
struct LintFixHintTests {
    @Test("every rule id of the core, of Docs/Profiles.md, of the issuance findings and of the libraries has a hint")
    func everyRuleHasAHint() throws {
        for rule in TrustRules.all {
            #expect(LintFixHints.table[rule.id] != nil, "no hint for \(rule.id)")
        }
        for rule in LintIssuanceRules.all {
            #expect(LintFixHints.table[rule.id] != nil, "no hint for \(rule.id)")
        }
        for status in LibraryFact.Status.allCases {
            #expect(LintFixHints.table["library.\(status.rawValue)"] != nil, "no hint for library.\(status.rawValue)")
        }
        let profiles = String(decoding: try FixtureLocator.bytes(FixtureLocator.url("Docs/Profiles.md").path), as: UTF8.self)
        let ids = profiles.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return line.dropFirst(3).split(separator: "`").first.map(String.init)
        }.filter { $0.contains(".") }
        #expect(ids.count > TrustRules.all.count)  // the core's rules and the issuance rules
        let listed = Set(ids)
        for id in ids { #expect(LintFixHints.table[id] != nil, "no hint for \(id) of Docs/Profiles.md") }
        for id in LintFixHints.table.keys.sorted() where !id.hasPrefix("library.") {
            #expect(listed.contains(id), "hint for \(id), which Docs/Profiles.md does not list")
        }
    }

    @Test("a hint is one line")
    func oneLine() {
        for (id, hint) in LintFixHints.table { #expect(!hint.contains("\n") && !hint.isEmpty, "\(id)") }
    }

    @Test("the validity maxima follow the issuance date")
    func validityMaxima() throws {
        func day(_ text: String) throws -> Date { try #require(DateText.parse(text)) }
        #expect(LintIssuanceRules.maximumValidityDays(issuedAt: try day("2018-02-28T23:59:59Z")) == nil)
        #expect(LintIssuanceRules.maximumValidityDays(issuedAt: try day("2018-03-01")) == 825)
        #expect(LintIssuanceRules.maximumValidityDays(issuedAt: try day("2020-09-01")) == 398)
        #expect(LintIssuanceRules.maximumValidityDays(issuedAt: try day("2026-03-14T23:59:59Z")) == 398)
        #expect(LintIssuanceRules.maximumValidityDays(issuedAt: try day("2026-03-15")) == 200)
        #expect(LintIssuanceRules.maximumValidityDays(issuedAt: try day("2027-03-15")) == 100)
        #expect(LintIssuanceRules.maximumValidityDays(issuedAt: try day("2029-03-14T23:59:59Z")) == 100)
        #expect(LintIssuanceRules.maximumValidityDays(issuedAt: try day("2029-03-15")) == 47)
    }

    @Test("key strength: RSA 2048 multiple of 8, P-256 and P-384 only")
    func keys() {
        #expect(LintIssuanceRules.keyProblem(.rsa(modulusBits: 2048)) == nil)
        #expect(LintIssuanceRules.keyProblem(.rsa(modulusBits: 2047)) != nil)
        #expect(LintIssuanceRules.keyProblem(.rsa(modulusBits: 2052)) != nil)
        #expect(LintIssuanceRules.keyProblem(.ec(curve: "prime256v1", bits: 256)) == nil)
        #expect(LintIssuanceRules.keyProblem(.ec(curve: "secp384r1", bits: 384)) == nil)
        #expect(LintIssuanceRules.keyProblem(.ec(curve: "secp521r1", bits: 521)) != nil)
        #expect(LintIssuanceRules.keyProblem(.ed25519) != nil)
    }
}

/// The table's colour: on a terminal only, never with NO_COLOR.
@Suite("lint colour")
struct LintColourTests {
    @Test("colour marks ✗ red and ✓ green; without it the table has no escape code")
    func colour() {
        let finding = LintFinding(rule: "certkit.peer-name", certificateIndex: 0, subject: "CN=leaf.example", check: "SSLHostname")
        let target = LintTarget.all[0]
        let verdicts = [
            LintVerdict(target: target, backend: "openssl", trusted: false, result: .recoverableTrustFailure, chain: [],
                        findings: [finding], pathsTried: 1),
            LintVerdict(target: LintTarget.all[5], backend: "openssl", trusted: true, result: .unspecified, chain: [],
                        findings: [], pathsTried: 1),
        ]
        let result = LintResult(
            presented: [], verdicts: verdicts, issuance: [], date: Date(timeIntervalSince1970: 0), peerName: "x.example",
            notes: ReportNotes(), skipped: [])
        let coloured = LintTextRenderer.render(result, colour: true)
        #expect(coloured.contains("\u{1B}[31m✗\u{1B}[0m") && coloured.contains("\u{1B}[32m✓\u{1B}[0m"))
        let plain = LintTextRenderer.render(result, colour: false)
        #expect(!plain.contains("\u{1B}"))
        #expect(plain.contains("[0] certkit.peer-name  ✗    ·"))
    }

    @Test("NO_COLOR set to anything but the empty string turns colour off; memory streams are no terminal")
    func noColour() {
        let context = CommandContext(
            stdin: MemorySource(), stdout: MemorySink(), stderr: MemorySink(), registry: .standard,
            environment: ["NO_COLOR": "1"])
        #expect(!LintCommand.colourWanted(context))
        var plain = context
        plain.environment = [:]
        #expect(!LintCommand.colourWanted(plain))
    }
}

/// A target is data: a rule set added to a row of the table refuses what the core accepted, and names its rule.
@Suite("lint targets as data")
struct LintTargetDataTests {
    @Test("an extra rule set's findings join the target's column and refuse the chain")
    func extraRuleSet() throws {
        let ruleSet = LintRuleSet(name: "example") { input in
            [LintFinding(rule: "example.always", certificateIndex: 0, subject: input.built?.first?.subject.description ?? "",
                         detail: "built \(input.built?.count ?? 0)")]
        }
        let plain = LintTarget(name: "plain", profile: .webpki, ruleSets: [], mode: .core, summary: "no rule set")
        var extra = plain
        extra.name = "extra"
        extra.ruleSets = [ruleSet]
        let engine = try LintEngine(
            targets: [plain, extra], coreBackend: "openssl", registry: .standard, network: nil, command: "lint")
        let chain = try sampleCertificates("server-chain.pem")
        let evaluation = TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: "localhost")], anchors: try sampleCertificates("root-ca.pem"),
            verifyDate: DateText.parse("2030-06-01"))
        let result = engine.lint(evaluation, notes: ReportNotes())
        #expect(result.verdicts[0].trusted && result.verdicts[0].findings.isEmpty)
        #expect(!result.verdicts[1].trusted && result.verdicts[1].result == .recoverableTrustFailure)
        #expect(result.verdicts[1].findings.map(\.rule) == ["example.always"])
        #expect(result.verdicts[1].findings.first?.detail == "built 3")
        #expect(LintCommand.exitCode(result) == .recoverableTrustFailure)
        let document = LintJSONRenderer.document(result).compact
        #expect(document.contains("\"ruleSets\":[\"example\"]"))
    }
}
