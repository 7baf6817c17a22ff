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
        [ConvertCommand.self, InspectCommand.self, EvaluateCommand.self, ConnectCommand.self, TrustCommand.self]
    }

    /// The tool's help.
    static var help: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let list = commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.summary }
        return ([
            "usage: certkit <command> [options] [arguments]",
            "",
            "X.509 certificate tools with SecTrust-style trust evaluation (OpenSSL or GnuTLS backend).",
            "",
            "commands:",
        ] + list + [
            "",
            "options:",
            "  -h, --help     show this help ('certkit <command> --help' for a command's)",
            "  --version      print the version",
            "",
            "Inputs are paths or '-' for standard input; '--' ends the options. Errors are one line on",
            "standard error: 'certkit: <file>: <problem>'. Exit codes: 0 success or trusted, 1 input error,",
            "2 usage error, 3 backends disagree, 10 recoverable, 11 fatal, 12 deny, 13 other error.",
        ]).joined(separator: "\n") + "\n"
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
            stdin: stdin, stdout: stdout, stderr: stderr, registry: registry, environment: environment)
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
            throw .usage("no command given (convert, inspect, evaluate, connect, trust)", command: nil)
        }
        switch first {
        case "-h", "--help", "help":
            context.stdout.write(help)
            return .success
        case "--version", "version":
            context.stdout.write("certkit \(version)\n")
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            throw .usage(
                first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown command '\(first)'", command: nil)
        }
        if let group = command as? any CommandGroup.Type {
            return try group.dispatch(Array(arguments.dropFirst()), context: context)
        }
        let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), options: command.options, command: command.name)
        if parsed.helpRequested {
            context.stdout.write(command.help)
            return .success
        }
        return try command.run(parsed, context: context)
    }
}
