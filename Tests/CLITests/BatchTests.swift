import CertKit
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// `evaluate --batch` and `inspect --batch` through the built binary (and a few parts in-process).
@Suite("batch mode")
struct BatchTests {
    static let common = ["evaluate", "--anchors", FixtureLocator.sample("root-ca.pem"), "--at", "2030-06-01", "--host", "localhost"]

    static func good(_ id: Any) throws -> String {
        BatchLines.line(["id": id, "chain": [try BatchLines.element(FixtureLocator.sample("server-chain.pem"))]])
    }

    static func expired(_ id: Any) throws -> String {
        BatchLines.line(["id": id, "chain": [
            try BatchLines.element(FixtureLocator.sample("expired.pem")), try BatchLines.element(FixtureLocator.sample("intermediate-ca.pem")),
        ]])
    }

    static func wrongHost(_ id: Any) throws -> String {
        BatchLines.line(["id": id, "chain": try BatchLines.derElements(FixtureLocator.sample("server-chain.pem")),
                         "host": "wrong.example"])
    }

    @Test("--jobs 2 keeps input order; each line gets its own verdict")
    func order() throws {
        var lines: [String] = []
        for index in 0..<240 {
            switch index % 3 {
            case 0: lines.append(try Self.good(index))
            case 1: lines.append(try Self.wrongHost(index))
            default: lines.append(try Self.expired(index))
            }
        }
        let run = try BatchProcess.run(Self.common + ["--batch", "-", "--jobs", "2"], lines: lines)
        #expect(run.code == 10, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "no progress line when standard error is not a terminal")
        let objects = run.objects
        #expect(objects.map { $0["id"] as? Int } == Array(0..<240))
        for (index, object) in objects.enumerated() {
            let error = (object["error"] as? [String: Any])?["check"] as? String
            switch index % 3 {
            case 0: #expect(object["trusted"] as? Bool == true && error == nil)
            case 1: #expect(error == "SSLHostname" && object["host"] as? String == "wrong.example")
            default: #expect(error == "TemporalValidity")
            }
        }
    }

    @Test("bad lines give one error line each, for their id, and the run goes on (exit 1)")
    func mixed() throws {
        let good = try BatchLines.element(FixtureLocator.sample("server-chain.pem"))
        let lines = [
            try Self.good("a"),
            #"{"id": "b", "chain": ["not a certificate"]}"#,
            #"{"id": "c"}"#,
            BatchLines.line(["id": "d", "chain": [good], "at": "yesterday"]),
            "[1, 2]",
            BatchLines.line(["id": "e", "chain": [good], "host": 5]),
            #"{"id": "f", "chain": [], "id": "g"}"#,
            BatchLines.line(["id": 7, "chain": [good], "policy": "nonsense"]),
            BatchLines.line(["id": "h", "chain": [good], "profile": "webpki", "policy": "basic", "host": []]),
            BatchLines.line(["id": "i", "chain": [Data("hello".utf8).base64EncodedString()]]),
            #"{"id": 1.5, "chain": []}"#,
            "",
            "   ",
            try Self.good("z"),
        ]
        let run = try BatchProcess.run(Self.common + ["--batch", "-", "--jobs", "2"], lines: lines)
        #expect(run.code == 1)
        let objects = run.objects
        #expect(objects.count == lines.count - 2, "blank lines are skipped")
        func error(_ index: Int) -> (code: String?, message: String?, line: Int?) {
            let error = objects[index]["error"] as? [String: Any]
            return (error?["code"] as? String, error?["message"] as? String, objects[index]["line"] as? Int)
        }
        #expect(objects[0]["trusted"] as? Bool == true && objects[0]["id"] as? String == "a")
        #expect(error(1).code == "invalid-chain" && objects[1]["id"] as? String == "b" && error(1).line == 2)
        #expect(error(2).code == "invalid-chain" && error(2).message == "no \"chain\"")
        #expect(error(3).code == "invalid-value" && error(3).message?.contains("yesterday") == true)
        #expect(error(4).code == "malformed-json" && objects[4]["id"] is NSNull)
        #expect(error(5).code == "invalid-value" && objects[5]["id"] as? String == "e")
        #expect(error(6).code == "malformed-json" && error(6).message?.contains("duplicate key 'id'") == true)
        #expect(error(7).code == "invalid-value" && objects[7]["id"] as? Int == 7)
        #expect(error(8).code == "invalid-value" && error(8).message?.contains("\"host\" is an empty array") == true)
        #expect(error(9).code == "invalid-chain")
        #expect(error(10).code == "invalid-value" && objects[10]["id"] is NSNull)
        #expect(objects[11]["trusted"] as? Bool == true && objects[11]["id"] as? String == "z")
        for index in 1...10 {
            #expect(objects[index].keys.sorted() == ["error", "id", "line"])
            let text = run.stdout.split(separator: "\n")[index]
            #expect(text.count < 400, "an error line is one short line")
        }
    }

    @Test("no line value removes a command-line setting: an empty list, null or a wrong type is invalid-value")
    func noValueDropsASetting() throws {
        // The command line names a host the chain does not have: a line that silently dropped it would be trusted.
        let wrong = ["evaluate", "--anchors", FixtureLocator.sample("root-ca.pem"), "--at", "2030-06-01", "--host", "wrong.example"]
        let chain = try BatchLines.derElements(FixtureLocator.sample("server-chain.pem"))
        var lines: [String] = []
        var expected: [(key: String, message: String)] = []
        for key in ["host", "ip", "email", "ocsp"] {
            lines.append(BatchLines.line(["id": "\(key)-empty", "chain": chain, key: [String]()]))
            expected.append((key, "\"\(key)\" is an empty array (give at least one value, or leave the key out)"))
        }
        for key in ["host", "ip", "email", "ocsp", "policy", "profile", "at"] {
            lines.append(BatchLines.line(["id": "\(key)-null", "chain": chain, key: NSNull()]))
            expected.append((key, "\"\(key)\" must be a string"))
            lines.append(BatchLines.line(["id": "\(key)-object", "chain": chain, key: ["a": "b"]]))
            expected.append((key, "\"\(key)\" must be a string"))
        }
        for key in ["host", "ip", "email", "policy", "profile", "at"] {
            lines.append(BatchLines.line(["id": "\(key)-blank", "chain": chain, key: ""]))
            expected.append((key, ""))
        }
        let run = try BatchProcess.run(wrong + ["--batch", "-"], lines: lines)
        #expect(run.code == 1, "\(run.stderr)")
        let objects = run.objects
        try #require(objects.count == lines.count)
        for (object, want) in zip(objects, expected) {
            let error = object["error"] as? [String: Any]
            #expect(error?["code"] as? String == "invalid-value", "\(object)")
            #expect((error?["message"] as? String)?.hasPrefix(want.message) == true, "\(object)")
            #expect(object["trusted"] == nil, "\(object)")
        }
        // The same chain with the command line's host alone is judged (and fails the name check), as it must.
        let plain = try BatchProcess.run(wrong + ["--batch", "-"], lines: [BatchLines.line(["chain": chain])])
        #expect(((plain.objects.first?["error"] as? [String: Any])?["check"] as? String) == "SSLHostname")
        // Without a command-line identity, a line's basic policy still follows the command line's rules.
        let basic = BatchLines.line(["chain": chain, "profile": "webpki", "policy": "basic"])
        let noHost = ["evaluate", "--anchors", FixtureLocator.sample("root-ca.pem"), "--at", "2030-06-01", "--batch", "-"]
        let message = (try BatchProcess.run(noHost, lines: [basic]).objects.first?["error"] as? [String: Any])?["message"]
        #expect((message as? String)?.contains("rfc5280") == true)
    }

    @Test("exit codes: all trusted 0, some untrusted 10, any error line 1 (whatever else)")
    func exitCodes() throws {
        let batch = Self.common + ["--batch", "-"]
        #expect(try BatchProcess.run(batch, lines: [try Self.good(1), try Self.good(2)]).code == 0)
        #expect(try BatchProcess.run(batch, lines: [try Self.good(1), try Self.expired(2)]).code == 10)
        #expect(try BatchProcess.run(batch, lines: [try Self.expired(1), "{}", try Self.good(3)]).code == 1)
        #expect(try BatchProcess.run(batch, lines: []).code == 0)
        // The order of the codes: error line, disagreement, then the worst verdict.
        var summary = BatchSummary()
        for code in [ExitCode.success, .recoverableTrustFailure, .deny, .fatalTrustFailure] { summary.add(code) }
        #expect(summary.exitCode == .deny && summary.lines == 4 && summary.trusted == 1)
        summary.add(.backendsDisagree)
        #expect(summary.exitCode == .backendsDisagree)
        summary.add(.inputError)
        summary.add(.otherError)
        #expect(summary.exitCode == .inputError && summary.errors == 1 && summary.disagreements == 1)
    }

    @Test("an unknown key is an error for that line, naming the key")
    func unknownKey() throws {
        let line = BatchLines.line(["id": "x", "chain": [try BatchLines.element(FixtureLocator.sample("server.pem"))], "hostname": "a"])
        let run = try BatchProcess.run(Self.common + ["--batch", "-"], lines: [line, try Self.good("y")])
        #expect(run.code == 1)
        let first = run.objects[0]
        let error = try #require(first["error"] as? [String: Any])
        #expect(error["code"] as? String == "unknown-key" && first["id"] as? String == "x")
        #expect((error["message"] as? String)?.hasPrefix("unknown key \"hostname\"") == true)
        #expect(run.objects[1]["trusted"] as? Bool == true)
    }

    @Test("an over-long line is an error line (id null, its number) and the next line is evaluated")
    func overLongLine() throws {
        let padding = String(repeating: "A", count: BatchOptions.maxLineBytes + 100)
        let long = #"{"id": "big", "chain": [""# + padding + #""]}"#
        let run = try BatchProcess.run(Self.common + ["--batch", "-", "--jobs", "2"],
                                       lines: [try Self.good(1), long, try Self.good(3)])
        #expect(run.code == 1)
        let objects = run.objects
        #expect(objects.count == 3)
        let error = try #require(objects[1]["error"] as? [String: Any])
        #expect(error["code"] as? String == "line-too-long")
        #expect(objects[1]["id"] is NSNull && objects[1]["line"] as? Int == 2)
        #expect(objects[2]["id"] as? Int == 3 && objects[2]["trusted"] as? Bool == true)
    }

    @Test("a file and standard input give the same output; a missing file is an input error")
    func fileAndStandardInput() throws {
        let directory = try TemporaryDirectory()
        let lines = [try Self.good("a"), try Self.expired("b"), "{}"]
        let path = try directory.write("batch.ndjson", Array(lines.joined(separator: "\n").utf8))
        let fromFile = try BatchProcess.run(Self.common + ["--batch", path], lines: [])
        let fromStdin = try BatchProcess.run(Self.common + ["--batch", "-"], lines: lines)
        #expect(fromFile.code == 1 && fromStdin.code == 1)
        #expect(fromFile.stdout == fromStdin.stdout && fromFile.objects.count == 3)
        let missing = try BatchProcess.run(Self.common + ["--batch", directory.file("none")], lines: [])
        #expect(missing.code == 1 && missing.stdout.isEmpty)
        #expect(missing.stderr == "certkit: \(directory.file("none")): no such file\n")
    }

    @Test("PEM and base64 DER elements give the same result; the output line is the --json document plus id")
    func pemAndDER() throws {
        let pem = try BatchLines.element(FixtureLocator.sample("server-chain.pem"))
        let ders = try BatchLines.derElements(FixtureLocator.sample("server-chain.pem"))
        let lines = [
            BatchLines.line(["id": "pem", "chain": [pem]]),
            BatchLines.line(["id": "der", "chain": ders]),
            BatchLines.line(["id": "mixed", "chain": [ders[0], try BatchLines.element(FixtureLocator.sample("intermediate-ca.pem"))]]),
        ]
        let batch = certkit(Self.common + ["--batch", "-"], stdin: Array(lines.joined(separator: "\n").utf8))
        #expect(batch.code == 0, "\(batch.stdoutText)\(batch.stderr)")
        let single = certkit(Self.common + ["--json", FixtureLocator.sample("server-chain.pem")])
        let outputs = batch.stdoutText.split(separator: "\n")
        #expect(outputs.count == 3)
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(single.stdout)) as? NSDictionary)
        for (output, id) in zip(outputs, ["pem", "der", "mixed"]) {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            #expect(object.removeValue(forKey: "id") as? String == id)
            #expect(NSDictionary(dictionary: object) == expected, "\(id)")
        }
    }

    /// The scenarios in groups that share their command-line inputs (anchors, intermediates, CRLs, settings, pins,
    /// exceptions, depth); within a group each scenario is one line carrying its own host/ip/email, policy,
    /// profile and date.
    static var scenarioGroups: [[ConformanceScenario]] {
        var groups: [String: [ConformanceScenario]] = [:]
        var order: [String] = []
        for scenario in Fixtures.scenarios {
            let key = [scenario.anchors, scenario.intermediates, scenario.crls, scenario.alwaysTrust, scenario.distrust,
                       scenario.pins, [scenario.exceptions ?? "-"], [scenario.maxDepth.map(String.init) ?? "-"]]
                .map { $0.joined(separator: ",") }.joined(separator: "|")
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(scenario)
        }
        return order.map { groups[$0]! }
    }

    @Test("per-line host/ip/email, policy, profile and at: each line equals a lone evaluate --json (every scenario)")
    func scenarios() throws {
        let base = Fixtures.scenariosDirectory.path + "/"
        // Under a sanitizer (5-15x slower) the first groups only; the plain pass compares every scenario.
        let sanitized = ProcessInfo.processInfo.environment["CERTKIT_SANITIZER_SLOWDOWN"] != nil
        let groups = sanitized ? Array(Self.scenarioGroups.prefix(6)) : Self.scenarioGroups
        var compared = 0
        for group in groups {
            let first = group[0]
            var arguments = ["evaluate", "--jobs", "2", "--batch", "-"]
            for (option, files) in [("--anchors", first.anchors), ("--intermediates", first.intermediates),
                                    ("--crl", first.crls), ("--always-trust", first.alwaysTrust),
                                    ("--distrust", first.distrust)] {
                for file in files { arguments += [option, base + file] }
            }
            for pin in first.pins { arguments += ["--pin", pin] }
            if let exceptions = first.exceptions { arguments += ["--exceptions", base + exceptions] }
            if let depth = first.maxDepth { arguments += ["--max-depth", String(depth)] }
            let lines = try group.map { scenario in
                // The same choices as ConformanceScenario.commandLine, as line keys.
                var members: [String: Any] = [
                    "id": scenario.name, "chain": [try BatchLines.element(base + scenario.chain)], "at": scenario.verifyDate,
                ]
                let isBasic = scenario.email == nil && scenario.policy != "ssl-server" && scenario.policy != "ssl-client"
                let clientIdentities = scenario.policy == "ssl-client"
                    && (scenario.email != nil || (scenario.host != nil && scenario.ip != nil))
                if !isBasic || scenario.profile == "rfc5280" { members["profile"] = scenario.profile }
                if let host = scenario.host { members["host"] = host }
                if let ip = scenario.ip { members["ip"] = ip }
                if let email = scenario.email { members["email"] = email }
                if scenario.email == nil || clientIdentities { members["policy"] = scenario.policy }
                return BatchLines.line(members)
            }
            let run = try BatchProcess.run(arguments, lines: lines)
            let objects = run.objects
            try #require(objects.count == group.count, "\(first.name): \(run.stderr)")
            var worst = BatchSummary()
            for (scenario, object) in zip(group, objects) {
                let single = certkit(scenario.commandLine)
                worst.add(ExitCode(rawValue: single.code) ?? .usage)
                var batchObject = object
                #expect(batchObject.removeValue(forKey: "id") as? String == scenario.name)
                var expected = try JSONSerialization.jsonObject(with: Data(single.stdout)) as? [String: Any] ?? [:]
                // Where the name came from differs by design: the line's host, not the command line's --host.
                let lineSource = batchObject.removeValue(forKey: "hostSource") as? String
                let commandSource = expected.removeValue(forKey: "hostSource") as? String
                #expect((lineSource == nil) == (commandSource == nil), "\(scenario.name)")
                #expect(lineSource.map { $0.hasPrefix("the line's ") } ?? true, "\(scenario.name)")
                #expect(NSDictionary(dictionary: batchObject) == NSDictionary(dictionary: expected), "\(scenario.name)")
                compared += 1
            }
            #expect(run.code == worst.exitCode.rawValue, "\(first.name): the batch code is the worst line's")
        }
        #expect(compared == groups.map(\.count).reduce(0, +))
        if !sanitized { #expect(compared == Fixtures.scenarios.count) }
    }

    @Test("--backend both: each line carries agree and backends")
    func bothBackends() throws {
        let run = try BatchProcess.run(Self.common + ["--backend", "both", "--batch", "-"],
                                       lines: [try Self.good(1), try Self.expired(2)])
        #expect(run.code == 10)
        #expect(run.objects.map { $0["agree"] as? Bool } == [true, true])
        #expect(run.objects.map { $0["backends"] as? [String] } == [["openssl", "gnutls"], ["openssl", "gnutls"]])
    }

    @Test("memory stays flat while many lines stream through (peak resident set at half and at all of the input)")
    func boundedMemory() throws {
        // `{"chain": ..., "host": ...}` without its opening brace; lines differ only in their id.
        let rest = Array(BatchLines.line([
            "chain": try BatchLines.derElements(FixtureLocator.sample("server-chain.pem")), "host": "wrong.example",
        ]).utf8.dropFirst()) + [0x0A]
        // Under a sanitizer (test.sh sets CERTKIT_SANITIZER_SLOWDOWN) fewer lines, and no bound: AddressSanitizer's
        // quarantine keeps freed memory on purpose and ThreadSanitizer's shadow grows with it.
        let sanitized = ProcessInfo.processInfo.environment["CERTKIT_SANITIZER_SLOWDOWN"] != nil
        let count = sanitized ? 1_000 : 6_000
        let chunks = (0..<(count / 100)).map { block -> Data in
            var data = Data()
            for index in 0..<100 {
                data.append(contentsOf: Array(#"{"id":\#(block * 100 + index),"#.utf8))
                data.append(contentsOf: rest)
            }
            return data
        }
        let run = try BatchProcess.run(Self.common + ["--batch", "-", "--jobs", "2"], chunks: chunks, samplePeak: true)
        #expect(run.code == 10, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == count)
        let peak = try #require(run.peakKiB)
        #expect(peak.half > 0 && peak.full > 0)
        if sanitized { return }
        // The input is 6,000 × 2.7 KB ≈ 16 MB; the process holds at most the window. Growth between the half and
        // the end stays small (allocator noise), well under the input's size.
        #expect(peak.full - peak.half < 8 * 1024, "peak \(peak.half) KiB at half, \(peak.full) KiB at the end")
    }

    @Test("inspect --batch: the inspect --json document of each line plus id; bad lines are error lines")
    func inspect() throws {
        let lines = [
            BatchLines.line(["id": "chain", "chain": [try BatchLines.element(FixtureLocator.sample("server-chain.pem"))],
                             "host": "ignored.example"]),
            BatchLines.line(["id": "der", "chain": try BatchLines.derElements(FixtureLocator.sample("server.pem")),
                             "at": "2000-01-01"]),
            BatchLines.line(["id": "bad", "chain": ["???"]]),
            BatchLines.line(["id": "key", "chain": ["???"], "extra": 1]),
        ]
        let run = try BatchProcess.run(["inspect", "--at", "2030-06-01", "--batch", "-", "--jobs", "2"], lines: lines)
        #expect(run.code == 1)
        let objects = run.objects
        #expect(objects.count == 4)
        let certificates = try #require(objects[0]["certificates"] as? [[String: Any]])
        #expect(certificates.count == 2 && certificates[0]["file"] as? String == "<stdin>:1")
        #expect(certificates.map { $0["status"] as? String } == ["valid", "valid"])
        let single = certkit(["inspect", "--json", "--at", "2030-06-01", FixtureLocator.sample("server-chain.pem")])
        let expected = try #require(
            (try JSONSerialization.jsonObject(with: Data(single.stdout)) as? [String: Any])?["certificates"] as? [[String: Any]])
        for (batch, lone) in zip(certificates, expected) {
            var batch = batch, lone = lone
            batch["file"] = nil
            lone["file"] = nil
            #expect(NSDictionary(dictionary: batch) == NSDictionary(dictionary: lone))
        }
        #expect((objects[1]["certificates"] as? [[String: Any]])?.first?["status"] as? String == "not yet valid")
        #expect((objects[2]["error"] as? [String: Any])?["code"] as? String == "invalid-chain")
        #expect((objects[3]["error"] as? [String: Any])?["code"] as? String == "unknown-key")
        let clean = try BatchProcess.run(["inspect", "--batch", "-"], lines: [lines[0]])
        #expect(clean.code == 0)
    }

    @Test("usage errors: --jobs without --batch, a bad --jobs, CHAIN or --save-exceptions with --batch")
    func usage() {
        #expect(certkit(Self.common + ["--jobs", "2", FixtureLocator.sample("server.pem")]).stderr
            == "certkit: --jobs needs --batch (see 'certkit evaluate --help')\n")
        for jobs in ["0", "-1", "x", "100000"] {
            #expect(certkit(Self.common + ["--batch", "-", "--jobs", jobs]).code == 2)
        }
        #expect(certkit(Self.common + ["--batch", "-", FixtureLocator.sample("server.pem")]).code == 2)
        #expect(certkit(Self.common + ["--batch", "-", "--save-exceptions", "/tmp/x"]).code == 2)
        #expect(certkit(["evaluate", "--batch", "-", "--anchors", "-"]).code == 2)
        #expect(certkit(["inspect", "--batch", "-", FixtureLocator.sample("server.pem")]).code == 2)
        #expect(certkit(["connect", "--batch", "-", "localhost"]).code == 2)
        #expect(certkit(["evaluate", "--help"]).stdoutText.contains("--batch FILE|-"))
        #expect(certkit(["inspect", "--help"]).stdoutText.contains("--jobs N"))
    }

    @Test("the line reader: chunk boundaries, CRLF, a last line without newline, over-long lines skipped")
    func lineReader() throws {
        let text = "a\r\nbb\n\n" + String(repeating: "x", count: 25) + "\nccc\n" + String(repeating: "y", count: 30)
        for chunkSize in [1, 2, 3, 7, 64] {
            var bytes = Array(text.utf8)[...]
            var reader = BatchLineReader(maxLineBytes: 10) {
                let chunk = Array(bytes.prefix(chunkSize))
                bytes = bytes.dropFirst(chunkSize)
                return chunk
            }
            var lines: [String] = []
            while let line = try reader.next() {
                switch line {
                case .text(let bytes): lines.append(String(decoding: bytes, as: UTF8.self))
                case .tooLong(let length): lines.append("<\(length)>")
                }
            }
            #expect(lines == ["a", "bb", "", "<25>", "ccc", "<30>"], "chunk \(chunkSize)")
            #expect(reader.lineNumber == 6 && reader.bytesConsumed == text.utf8.count)
        }
    }

    @Test("the line parser: strict JSON, escapes, duplicate keys, whole numbers")
    func json() throws {
        let value = try BatchJSON.parse(Array(#" {"a": "\u00e9\ud83d\ude00\n", "b": [1, -2.5e3, true, null], "c": {}} "#.utf8))
        #expect(value == .object([
            ("a", .string("é😀\n")),
            ("b", .array([.number(text: "1", integer: 1), .number(text: "-2.5e3", integer: nil), .bool(true), .null])),
            ("c", .object([])),
        ]))
        for bad in [#"{"a":1,"a":2}"#, "{", #"{"a":01}"#, #"{"a":"\x"}"#, "{\"a\":\"\u{1}\"}", #"{"a":1} x"#,
                    #""\ud800""#, String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "tru"] {
            #expect(throws: BatchJSON.SyntaxError.self, "\(bad)") { try BatchJSON.parse(Array(bad.utf8)) }
        }
        #expect(throws: BatchJSON.SyntaxError.self) { try BatchJSON.parse([0x22, 0xFF, 0x22]) }
    }
}
