import CertKit
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// `--help` as a newcomer reads it: wrapped to the terminal, no Swift type names, the batch keys all listed; and
/// the hints a mistyped command line gets.
@Suite("help and hints")
struct HelpTests {
    /// Every command's words after `certkit`, the tool itself first.
    static let commandPaths: [[String]] = [[]] + CommandTable.all.map { $0.path.split(separator: " ").map(String.init) }

    /// The help of `path` with `environment`.
    static func help(_ path: [String], environment: [String: String] = [:]) -> RunResult {
        certkit(path + ["--help"], environment: environment)
    }

    /// True when `line` fits `width`, or is one word that cannot be broken (after its indentation).
    static func fits(_ line: String, _ width: Int) -> Bool {
        line.count <= width || !line.trimmingCharacters(in: .whitespaces).contains(" ")
    }

    @Test("--help wraps to 80 columns without a terminal, to COLUMNS when set", arguments: commandPaths)
    func wraps(path: [String]) {
        let plain = Self.help(path)
        #expect(plain.code == 0)
        let lines = plain.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { Self.fits($0, 80) }, "\(path): \(lines.filter { !Self.fits($0, 80) })")
        let narrow = Self.help(path, environment: ["COLUMNS": "50"]).stdoutText.split(separator: "\n").map(String.init)
        #expect(narrow.allSatisfy { Self.fits($0, 50) }, "\(path): \(narrow.filter { !Self.fits($0, 50) })")
        #expect(narrow.count > lines.count, "\(path): narrower is longer")
        let wide = Self.help(path, environment: ["COLUMNS": "200"]).stdoutText
        #expect(wide.split(separator: "\n").contains { $0.count > 80 }, "\(path): COLUMNS=200 is used")
        // The words are the same whatever the width.
        func words(_ text: String) -> [Substring] { text.split(whereSeparator: { $0 == " " || $0 == "\n" }) }
        #expect(words(wide) == words(plain.stdoutText), "\(path)")
        // A nonsensical COLUMNS is not a width; a tiny one is raised to the minimum.
        #expect(Self.help(path, environment: ["COLUMNS": "wide"]).stdoutText == plain.stdoutText)
        let tiny = Self.help(path, environment: ["COLUMNS": "5"]).stdoutText
        #expect(tiny == Self.help(path, environment: ["COLUMNS": "\(HelpWidth.minimum)"]).stdoutText)
    }

    @Test("on a terminal, --help wraps to the terminal's width (the built binary under a pseudo-terminal of 60 columns)")
    func terminalWidth() throws {
        let executable = try #require(BinaryTests.executable, "build the certkit product first")
        // script(1) gives the command a pseudo-terminal; stty sets its width; COLUMNS is left unset.
        let run = try ProcessRunner.run(
            ["env", "-u", "COLUMNS", "script", "-q", "-e", "-c", "stty cols 60 rows 40; '\(executable)' evaluate --help", "/dev/null"])
        #expect(run.status == 0, "\(run.stderrText)")
        let lines = run.stdoutText.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("usage: certkit evaluate") == true, "\(lines.prefix(2))")
        #expect(lines.allSatisfy { Self.fits($0, 60) }, "\(lines.filter { !Self.fits($0, 60) })")
        #expect(lines.contains { $0.count > 50 }, "the lines use the terminal's width")
        // The same binary into a pipe: 80 columns.
        let piped = try ProcessRunner.run(["env", "-u", "COLUMNS", executable, "evaluate", "--help"])
        #expect(piped.stdoutText.split(separator: "\n").contains { $0.count > 60 })
        #expect(piped.stdoutText.split(separator: "\n").allSatisfy { Self.fits(String($0), 80) })
    }

    @Test("the wrapper keeps words whole, indents continuation lines and keeps usage groups together")
    func wrapper() {
        #expect(HelpPage.wrap("aa bb cc dd", width: 5, first: "", rest: " ") == ["aa bb", " cc", " dd"])
        #expect(HelpPage.wrap("a-very-long-word x", width: 4) == ["a-very-long-word", "x"])
        #expect(HelpPage.usageWords("certkit x [--out FILE | --dir DIR] [--jobs N] A") == [
            "certkit", "x", "[--out FILE | --dir DIR]", "[--jobs N]", "A",
        ])
        #expect(HelpPage.paragraphs("one\ntwo\n\n  three \n") == ["one two", "three"])
    }

    @Test("help COMMAND is the command's --help; help for an unknown command suggests one")
    func helpCommand() {
        for entry in CommandTable.all {
            let words = entry.path.split(separator: " ").map(String.init)
            #expect(certkit(["help"] + words).stdoutText == certkit(words + ["--help"]).stdoutText, "\(entry.path)")
        }
        #expect(certkit(["help"]).stdoutText == certkit(["--help"]).stdoutText)
        let unknown = certkit(["help", "evalute"])
        #expect(unknown.code == 2)
        #expect(unknown.stderr == "certkit: no command 'evalute'; did you mean 'evaluate'? (see 'certkit --help')\n")
        #expect(certkit(["help", "--completion"]).code == 2)
        #expect(certkit(["help", "--completion", "csh"]).code == 2)
        #expect(certkit(["help", "--man", "extra"]).code == 2)
    }

    /// The type names declared in the command line's and the core's sources, of two words or more
    /// (`EvaluateJSONRenderer`, `TrustStore`): a newcomer cannot look them up.
    static func typeNames() throws -> Set<String> {
        var names: Set<String> = []
        let pattern = try NSRegularExpression(pattern: #"\b(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9]*)"#)
        for directory in ["Sources/CertKitCLI", "Sources/CertKit"] {
            let root = FixtureLocator.url(directory)
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    let name = String(text[Range(match.range(at: 1), in: text)!])
                    if name.filter(\.isUppercase).count >= 2, name.contains(where: \.isLowercase) { names.insert(name) }
                }
            }
        }
        // Apple's check names (KeyUsage, NameConstraints, ...) are words of the output, whatever the sources call.
        return names.subtracting(TrustCheck.allCases.map(\.rawValue))
    }

    @Test("no help text or man page names a Swift type; --json points to Docs/CLI.md")
    func noTypeNames() throws {
        let names = try Self.typeNames()
        #expect(names.contains("EvaluateJSONRenderer") && names.contains("HelpPage"), "the scan finds the types")
        let texts = Self.commandPaths.map { Self.help($0, environment: ["COLUMNS": "100000"]).stdoutText }
            + [ManPage.render()]
        for text in texts {
            // Words, not paths: Docs/TrustStore.md names a document.
            let words = Set(text.split(whereSeparator: \.isWhitespace).filter { !$0.contains("/") }
                .flatMap { $0.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) }.map(String.init))
            let named = words.intersection(names)
            #expect(named.isEmpty, "help names Swift types: \(named.sorted())")
        }
        for command in ["evaluate", "inspect"] {
            let help = Self.help([command], environment: ["COLUMNS": "100000"]).stdoutText
            #expect(help.contains("print one JSON document (its keys: Docs/CLI.md, section '\(command) --json')"))
        }
    }

    @Test("the batch help names every key a request line may have")
    func batchKeys() {
        let evaluate = Self.help(["evaluate"], environment: ["COLUMNS": "100000"]).stdoutText
        let inspect = Self.help(["inspect"], environment: ["COLUMNS": "100000"]).stdoutText
        #expect(EvaluateBatch.keys.contains("ocsp"))
        for key in ["id"] + EvaluateBatch.keys {
            #expect(evaluate.contains("\"\(key)\""), "evaluate --help lacks \"\(key)\"")
        }
        for key in InspectBatch.keys where !["chain", "at"].contains(key) {
            #expect(inspect.contains(" \(key)"), "inspect --help lacks \(key)")
        }
    }

    @Test("the repository cites no issue number and no document outside it")
    func noCitations() throws {
        let pattern = try NSRegularExpression(pattern: #"DESIGN §|\b[Ii]ssues? #?[0-9]|\bissue-[0-9]"#)
        var offenders: [String] = []
        for directory in ["Sources", "Docs", "Scripts", "README.md", "Tests", "Samples", "Benchmarks", "Package.swift"] {
            let root = FixtureLocator.url(directory)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
                Issue.record("\(directory) is missing")
                continue
            }
            let files = isDirectory.boolValue
                ? FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
                    .filter { ["swift", "md", "sh", "py", "c", "h"].contains($0.pathExtension) } ?? []
                : [root]
            for file in files where !file.path.contains("__pycache__") {
                // An empty file (a Python package's __init__.py) holds no citation, and Foundation's file reading
                // leaks its buffer on one (reported by LeakSanitizer).
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? nil
                guard size != 0, let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let line = String(line)
                    if pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil,
                       !line.contains("NSRegularExpression(pattern: #\"DESIGN")
                    {
                        offenders.append("\(file.path.replacingOccurrences(of: FixtureLocator.packageRoot.path + "/", with: "")):\(number + 1)")
                    }
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }

    @Test("did you mean: a near miss of an option, a command or a trust subcommand is named; exit 2")
    func didYouMean() {
        let cases: [([String], String)] = [
            (["evaluate", "--anchor", "x.pem"],
             "certkit: unknown option '--anchor'; did you mean '--anchors'? (see 'certkit evaluate --help')\n"),
            (["evaluate", "--anchors=a", "--hots", "x", "c"],
             "certkit: unknown option '--hots'; did you mean '--host'? (see 'certkit evaluate --help')\n"),
            (["connect", "--servrename", "a", "h"],
             "certkit: unknown option '--servrename'; did you mean '--servername'? (see 'certkit connect --help')\n"),
            (["evaluate", "-anchors", "x.pem"],
             "certkit: unknown option '-anchors'; did you mean '--anchors'? (see 'certkit evaluate --help')\n"),
            (["evaluate", "--inter", "x.pem"],
             "certkit: unknown option '--inter'; did you mean '--intermediates'? (see 'certkit evaluate --help')\n"),
            (["evalute", "x.pem"], "certkit: unknown command 'evalute'; did you mean 'evaluate'? (see 'certkit --help')\n"),
            (["inspcet", "x.pem"], "certkit: unknown command 'inspcet'; did you mean 'inspect'? (see 'certkit --help')\n"),
            (["trust", "ad", "x.pem"],
             "certkit: unknown trust subcommand 'ad'; did you mean 'add'? (see 'certkit trust --help')\n"),
            (["convert", "--nope"], "certkit: unknown option '--nope' (see 'certkit convert --help')\n"),
            (["frobnicate"], "certkit: unknown command 'frobnicate' (see 'certkit --help')\n"),
        ]
        for (arguments, message) in cases {
            let run = certkit(arguments)
            #expect(run.code == 2, "\(arguments)")
            #expect(run.stderr == message, "\(arguments)")
        }
        #expect(Suggestion.editDistance("anchor", "anchors") == 1)
        #expect(Suggestion.editDistance("evalute", "evaluate") == 1)
        #expect(Suggestion.editDistance("hots", "host") == 1, "a swap of neighbours is one edit")
        #expect(Suggestion.closest(to: "zz", among: ["ip", "at"]) == nil)
    }

    @Test("--password points to --password-file and --password-env and never echoes the password")
    func password() {
        for command in [["inspect"], ["convert"], ["connect"]] {
            for option in ["--password", "--password=hunter2", "--pass", "--passin"] {
                let run = certkit(command + [option, "hunter2", "x"])
                #expect(run.code == 2, "\(command) \(option)")
                let name = option.split(separator: "=")[0]
                #expect(run.stderr == "certkit: unknown option '\(name)'; a password is never taken from the command line: use --password-file FILE or --password-env VAR (see 'certkit \(command[0]) --help')\n")
                #expect(!run.stderr.contains("hunter2"))
            }
        }
    }

    @Test("--version names certkit's version and the OpenSSL and GnuTLS libraries loaded")
    func version() throws {
        let run = certkit(["--version"])
        #expect(run.code == 0)
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(lines)")
        #expect(lines[0] == "certkit \(CertKitCommand.version)")
        // The command-line tools of the two libraries, linked against the same shared libraries, agree.
        let openssl = try ProcessRunner.check(["openssl", "version"])
        let opensslVersion = String(decoding: openssl, as: UTF8.self).split(separator: " ")[1]
        #expect(lines[1].hasPrefix("openssl: OpenSSL \(opensslVersion) "), "\(lines[1]) / \(opensslVersion)")
        let gnutls = try ProcessRunner.check(["gnutls-cli", "--version"])
        let gnutlsVersion = String(decoding: gnutls, as: UTF8.self).split(separator: "\n")[0].split(separator: " ").last!
        #expect(lines[2] == "gnutls: GnuTLS \(gnutlsVersion)", "\(lines[2])")
    }
}
