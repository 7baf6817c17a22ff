import CertKit
import CertKitBackends
import Foundation

/// The `certkit` command line as a library: tests drive it with in-memory streams, `main.swift` with the
/// process's own.
public enum CertKitCommand {
    /// The longest error line written (messages quoting an input are clipped well before this).
    static let maximumErrorLineLength = 1_000

    /// The version `--version` prints.
    public static let version = "0.1.0"

    static var commands: [any Command.Type] {
        [ConvertCommand.self, InspectCommand.self, EvaluateCommand.self, LintCommand.self, ConnectCommand.self, TrustCommand.self]
    }

    /// The tool's help.
    static var help: HelpPage {
        HelpPage(
            usage: ["certkit <command> [options] [arguments]"],
            summary: "X.509 certificate tools with SecTrust-style trust evaluation (OpenSSL or GnuTLS backend).",
            tables: [
                HelpPage.Table(
                    heading: "commands",
                    rows: commands.map { HelpPage.Row(term: $0.name, text: $0.summary) } + [
                        HelpPage.Row(
                            term: "help",
                            text: "this help; 'help COMMAND' a command's; 'help --man' the manual page (roff); 'help --completion bash|zsh|fish' a completion script"),
                    ]),
                HelpPage.Table(heading: "options", rows: [
                    HelpPage.Row(term: "-h, --help", text: "show this help ('certkit <command> --help' for a command's)"),
                    HelpPage.Row(term: "--version", text: "print the version and those of the OpenSSL and GnuTLS libraries in use"),
                ]),
            ],
            details: """
                Inputs are paths or '-' for standard input; '--' ends the options. Errors are one line on standard
                error: 'certkit: <file>: <problem>'.

                exit codes: 0 success or trusted, 1 input error, 2 usage error, 3 backends disagree, 10 recoverable,
                11 fatal, 12 deny, 13 other error

                The JSON output, the trust store and the verification profiles are described in Docs/CLI.md,
                Docs/TrustStore.md and Docs/Profiles.md of the certkit sources.
                """)
    }

    /// What `--version` prints: certkit's version, then each backend's library as loaded at run time.
    static func versionText(registry: BackendRegistry) -> String {
        (["certkit \(version)"] + registry.entries.map { "\($0.name): \($0.libraryVersion)" })
            .joined(separator: "\n") + "\n"
    }

    /// Runs `certkit` with `arguments` (without the program name) and returns the exit code.
    public static func run(arguments: [String], stdin: any ByteSource, stdout: any ByteSink, stderr: any ByteSink)
        -> Int32
    {
        run(arguments: arguments, stdin: stdin, stdout: stdout, stderr: stderr, registry: .standard)
    }

    /// Runs `certkit` with the backends of `registry`; `environment` is the process environment (it chooses the
    /// default trust store).
    package static func run(
        arguments: [String], stdin: any ByteSource, stdout: any ByteSink, stderr: any ByteSink,
        registry: BackendRegistry, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int32 {
        let context = CommandContext(
            stdin: stdin, stdout: stdout, stderr: stderr, registry: registry, environment: environment,
            helpWidth: HelpWidth.columns(environment: environment, stdout: stdout))
        do {
            return try dispatch(arguments, context: context).rawValue
        } catch {
            // One short line, safe to print: messages quote file names, arguments and decoder errors; they are
            // escaped (DisplayText), then clipped.
            stderr.write(MessageText.line(DisplayText.escaped(error.line), limit: maximumErrorLineLength) + "\n")
            return error.exitCode.rawValue
        }
    }

    private static func dispatch(_ arguments: [String], context: CommandContext) throws(CLIError) -> ExitCode {
        guard let first = arguments.first else {
            throw .usage("no command given (\(commands.map { $0.name }.joined(separator: ", ")))", command: nil)
        }
        switch first {
        case "-h", "--help":
            context.stdout.write(help.rendered(width: context.helpWidth))
            return .success
        case "help":
            return try helpCommand(Array(arguments.dropFirst()), context: context)
        case "--version", "version":
            context.stdout.write(versionText(registry: context.registry))
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") { throw .usage(ArgumentParser.unknownOption(first, options: []), command: nil) }
            let names = commands.map { $0.name } + ["help", "version"]
            let suggestion = Suggestion.closest(to: first, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw .usage("unknown command '\(first)'\(suggestion)", command: nil)
        }
        if let group = command as? any CommandGroup.Type {
            return try group.dispatch(Array(arguments.dropFirst()), context: context)
        }
        let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), options: command.options, command: command.name)
        if parsed.helpRequested {
            context.stdout.write(command.help.rendered(width: context.helpWidth))
            return .success
        }
        return try command.run(parsed, context: context)
    }

    /// `certkit help`: the tool's help, a command's (`help evaluate`, `help trust add`), the manual page
    /// (`help --man`) or a shell's completion script (`help --completion bash|zsh|fish`), all made from the same
    /// tables as `--help`.
    private static func helpCommand(_ arguments: [String], context: CommandContext) throws(CLIError) -> ExitCode {
        switch arguments.first {
        case nil:
            context.stdout.write(help.rendered(width: context.helpWidth))
        case "--man"?:
            guard arguments.count == 1 else { throw .usage("help --man takes no argument", command: nil) }
            context.stdout.write(ManPage.render())
        case "--completion"?:
            let shells = ShellCompletion.Shell.allCases.map(\.rawValue)
            guard arguments.count == 2, let shell = ShellCompletion.Shell(rawValue: arguments[1]) else {
                throw .usage("help --completion needs one shell: \(shells.joined(separator: ", "))", command: nil)
            }
            context.stdout.write(ShellCompletion.script(for: shell))
        case let name?:
            let path = arguments.joined(separator: " ")
            guard let page = CommandTable.all.first(where: { $0.path == path })?.help else {
                let suggestion = Suggestion.closest(to: name, among: commands.map { $0.name }).map { "; did you mean '\($0)'?" } ?? ""
                throw .usage("no command '\(path)'\(suggestion)", command: nil)
            }
            context.stdout.write(page.rendered(width: context.helpWidth))
        }
        return .success
    }
}
