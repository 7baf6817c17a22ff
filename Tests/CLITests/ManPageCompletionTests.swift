@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// The man page and the bash, zsh and fish completions `certkit help` makes: each holds every command and every
/// option of the parser's tables, and the real `man`, `groff`, `bash`, `zsh` and `fish` accept and use them.
@Suite("man page and shell completions")
struct ManPageCompletionTests {
    /// The commands that take options (a group's options are its subcommands').
    static var commands: [CommandTable.Entry] { CommandTable.all.filter { !$0.isGroup } }

    static func generated(_ arguments: [String]) throws -> String {
        let run = certkit(["help"] + arguments)
        try #require(run.code == 0, "\(arguments): \(run.stderr)")
        return run.stdoutText
    }

    /// `text` written to a file of `directory`.
    static func file(_ text: String, _ name: String, in directory: TemporaryDirectory) throws -> String {
        try directory.write(name, Array(text.utf8))
    }

    // MARK: man page

    @Test("the man page has a section per command with every option of its table, in roff that groff and man accept")
    func manPage() throws {
        let page = try Self.generated(["--man"])
        #expect(page.hasPrefix(".\\\" certkit.1, generated"))
        for entry in CommandTable.all {
            let header = ".SS \"certkit \(ManPage.escaped(entry.path))\"\n"
            let start = try #require(page.range(of: header), "no section for \(entry.path)")
            let rest = page[start.upperBound...]
            let section = String(rest[..<(rest.range(of: "\n.SS ")?.lowerBound ?? rest.range(of: "\n.SH ")!.lowerBound)])
            for option in entry.options {
                #expect(section.contains(".TP\n" + ManPage.term(option.term) + "\n" + ManPage.escaped(option.helpRow.text) + "\n"),
                        "certkit \(entry.path): --\(option.name) is missing from the man page")
            }
            for usage in entry.help.usage { #expect(page.contains(ManPage.escaped(usage) + "\n")) }
            #expect(entry.isGroup || section.contains(".TP\n\\fB\\-h, \\-\\-help\\fR\n"), "\(entry.path)")
        }
        let directory = try TemporaryDirectory()
        let path = try Self.file(page, "certkit.1", in: directory)
        let groff = try ProcessRunner.run(["groff", "-man", "-Tutf8", "-ww", "-z", path])
        #expect(groff.status == 0 && groff.stderrText.isEmpty, "groff warns: \(groff.stderrText)")
        let man = try ProcessRunner.run(["man", "-l", path], environment: ["MANPAGER": "cat", "MANWIDTH": "80", "PAGER": "cat"])
        #expect(man.status == 0, "\(man.stderrText)")
        let text = man.stdoutText
        #expect(text.contains("CERTKIT(1)"))
        // What man shows is what --help says (hyphenation and justification aside).
        for phrase in ["--profile apple|rfc5280|webpki", "certkit trust export", "--password-env VAR", "--trust-store[=DIR]"] {
            #expect(text.replacingOccurrences(of: "\u{2010}", with: "-").contains(phrase), "man lacks \(phrase)")
        }
    }

    @Test("roff escaping: backslashes, hyphens and a leading period")
    func roffEscaping() {
        #expect(ManPage.escaped(#"a\b-c"#) == #"a\eb\-c"#)
        #expect(ManPage.escaped(".TH x") == #"\&.TH x"#)
        #expect(ManPage.term("--out FILE") == #"\fB\-\-out\fR \fIFILE\fR"#)
        #expect(ManPage.term("-h, --help") == #"\fB\-h, \-\-help\fR"#)
    }

    // MARK: bash

    /// What the bash completion offers for `words` (the last one being completed).
    static func bashComplete(_ script: String, _ words: [String], in directory: String? = nil) throws -> [String] {
        let run = try ProcessRunner.run(
            ["bash", "--norc", "--noprofile", "-c",
             "source \"$0\"; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _certkit; printf '%s\\n' \"${COMPREPLY[@]}\"",
             script] + words, currentDirectory: directory)
        #expect(run.status == 0, "\(words): \(run.stderrText)")
        return run.stdoutText.split(separator: "\n").map(String.init)
    }

    @Test("bash: complete -p names the function; commands, subcommands, options, --profile values and files complete")
    func bash() throws {
        let directory = try TemporaryDirectory()
        let script = try Self.file(try Self.generated(["--completion", "bash"]), "certkit.bash", in: directory)
        let registered = try ProcessRunner.run(["bash", "--norc", "-c", "source \"$0\" && complete -p certkit", script])
        #expect(registered.stdoutText == "complete -F _certkit certkit\n", "\(registered.stderrText)")

        #expect(try Self.bashComplete(script, ["certkit", ""]) == CommandTable.topLevel.map(\.path) + ["help", "--help", "--version"])
        #expect(try Self.bashComplete(script, ["certkit", "ev"]) == ["evaluate"])
        #expect(try Self.bashComplete(script, ["certkit", "trust", ""]) == TrustCommand.subcommandNames + ["--help"])
        #expect(try Self.bashComplete(script, ["certkit", "evaluate", "--profile", ""]) == EvaluateOptions.profileNames)
        #expect(try Self.bashComplete(script, ["certkit", "evaluate", "--profile", "=", "we"]) == ["webpki"])
        #expect(try Self.bashComplete(script, ["certkit", "connect", "--tls", ""]) == ["openssl", "gnutls"])
        #expect(try Self.bashComplete(script, ["certkit", "trust", "add", "--result", "trustA"]) == ["trustAsRoot"])
        #expect(try Self.bashComplete(script, ["certkit", "evaluate", "--anch"]) == ["--anchors"])
        #expect(try Self.bashComplete(script, ["certkit", "help", "--completion", ""]) == ["bash", "zsh", "fish"])
        #expect(try Self.bashComplete(script, ["certkit", "evaluate", "--host", ""]).isEmpty, "a host name is free text")

        // Files for a FILE option and for the operands; directories only for a DIR option; nothing after
        // --trust-store (it never takes the next word) but the operands.
        let files = try TemporaryDirectory()
        _ = try files.write("chain.pem", [])
        try FileManager.default.createDirectory(atPath: files.file("store"), withIntermediateDirectories: true)
        #expect(try Self.bashComplete(script, ["certkit", "evaluate", "--anchors", "ch"], in: files.url.path) == ["chain.pem"])
        #expect(try Self.bashComplete(script, ["certkit", "evaluate", "c"], in: files.url.path) == ["chain.pem"])
        #expect(try Self.bashComplete(script, ["certkit", "evaluate", "--store", ""], in: files.url.path) == ["store"])
        #expect(try Self.bashComplete(script, ["certkit", "evaluate", "--trust-store", "="], in: files.url.path) == ["store"])
        #expect(try Self.bashComplete(script, ["certkit", "evaluate", "--trust-store", "c"], in: files.url.path) == ["chain.pem"])
        #expect(try Self.bashComplete(script, ["certkit", "trust", "list", ""], in: files.url.path).isEmpty)

        // Every option of every command, and nothing else.
        for entry in Self.commands {
            let words = ["certkit"] + entry.path.split(separator: " ").map(String.init) + ["--"]
            let offered = try Self.bashComplete(script, words)
            #expect(Set(offered) == Set(entry.options.map { "--\($0.name)" } + ["--help"]), "certkit \(entry.path)")
        }
    }

    // MARK: fish

    /// What fish offers for the command line `line`.
    static func fishComplete(_ script: String, _ line: String) throws -> [String] {
        let run = try ProcessRunner.run(["fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script, line])
        #expect(run.status == 0, "\(line): \(run.stderrText)")
        return run.stdoutText.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1)[0]) }
    }

    @Test("fish: commands, subcommands, options and --profile values complete")
    func fish() throws {
        let directory = try TemporaryDirectory()
        let script = try Self.file(try Self.generated(["--completion", "fish"]), "certkit.fish", in: directory)
        #expect(try ProcessRunner.run(["fish", "--no-config", "-n", script]).status == 0)
        #expect(Set(try Self.fishComplete(script, "certkit ")) == Set(CommandTable.topLevel.map(\.path) + ["help"]))
        #expect(try Self.fishComplete(script, "certkit trust ").sorted() == TrustCommand.subcommandNames.sorted())
        #expect(try Self.fishComplete(script, "certkit evaluate --profile ").sorted() == EvaluateOptions.profileNames.sorted())
        #expect(try Self.fishComplete(script, "certkit trust export --format ").sorted() == ["openssl-dir", "pem-bundle"])
        for entry in Self.commands {
            let offered = try Self.fishComplete(script, "certkit \(entry.path) --")
            #expect(Set(offered) == Set(entry.options.map { "--\($0.name)" } + ["--help"]), "certkit \(entry.path)")
        }
    }

    // MARK: zsh

    /// `zsh -f drive.zsh FPATH LINE WORD...`: types LINE and a tab into an interactive zsh whose fpath holds the
    /// completion, and prints what the terminal showed once every WORD appears (or after 20 s).
    static let zshDriver = #"""
        zmodload zsh/zpty
        zpty z zsh -f -i
        zpty -w z "fpath=($1 \$fpath); autoload -U compinit; compinit -u -D; PS1='> '; zstyle ':completion:*' menu no"
        zpty -w -n z "$2"$'\t'
        out=""
        integer deadline=$(( SECONDS + 20 ))
        while (( SECONDS < deadline )); do
          if zpty -r -t z chunk; then out+=$chunk; else sleep 0.1; fi
          integer seen=1
          for word in "${@[3,-1]}"; do [[ $out == *"$word"* ]] || seen=0; done
          (( seen )) && break
        done
        zpty -d z
        print -r -- "$out"
        """#

    @Test("zsh: the script parses, loads and completes; it holds every command and option with its values")
    func zsh() throws {
        let directory = try TemporaryDirectory()
        let text = try Self.generated(["--completion", "zsh"])
        let script = try Self.file(text, "_certkit", in: directory)
        #expect(text.hasPrefix("#compdef certkit\n"))
        #expect(try ProcessRunner.run(["zsh", "-n", script]).status == 0)
        // compinit finds it on fpath and binds it to certkit.
        let loaded = try ProcessRunner.run([
            "zsh", "-f", "-c",
            "fpath=($0 $fpath); autoload -U compinit; compinit -u -D; print -r -- ${_comps[certkit]}", directory.url.path,
        ])
        #expect(loaded.stdoutText == "_certkit\n", "\(loaded.stderrText)")
        // Completion as a user gets it: an interactive zsh on a pseudo-terminal (zsh/zpty), a line and a tab.
        let driver = try Self.file(Self.zshDriver, "drive.zsh", in: directory)
        for (line, expected) in [
            ("certkit evaluate --profile ", EvaluateOptions.profileNames),
            ("certkit tr", ["trust"]),
            ("certkit trust ", TrustCommand.subcommandNames),
            ("certkit trust add --result ", ["trustRoot", "trustAsRoot", "deny", "unspecified"]),
            ("certkit connect --tl", ["--tls"]),
        ] {
            let run = try ProcessRunner.run(["zsh", "-f", driver, directory.url.path, line] + expected, timeout: 60)
            for word in expected {
                #expect(run.stdoutText.contains(word), "zsh offers no \(word) for '\(line)': \(run.stdoutText)")
            }
        }
        for entry in Self.commands {
            let function = "_certkit_" + entry.path.replacingOccurrences(of: " ", with: "_")
            let start = try #require(text.range(of: "\n\(function)() {\n"), "no function for \(entry.path)")
            let body = String(text[start.upperBound...].prefix { $0 != "}" })
            for option in entry.options {
                #expect(body.contains("--\(option.name)=") || body.contains("--\(option.name)["),
                        "certkit \(entry.path): --\(option.name) is missing from the zsh completion")
                if case .choices(let words) = option.valueKind {
                    #expect(body.contains(":(\(words.joined(separator: " ")))'"), "certkit \(entry.path) --\(option.name)")
                }
            }
            #expect(text.contains("    \"\(entry.path)\") \(function) ;;"))
        }
    }
}
