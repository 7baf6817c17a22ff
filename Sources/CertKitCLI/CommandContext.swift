import CertKit
import CertKitBackends

/// What every command gets: the standard streams and the backends.
struct CommandContext {
    let stdin: any ByteSource
    let stdout: any ByteSink
    let stderr: any ByteSink
    let registry: BackendRegistry
    /// The process environment (`CERTKIT_STORE`, `XDG_DATA_HOME`, `HOME` choose the trust store).
    var environment: [String: String] = [:]
    /// The width `--help` is wrapped to (``HelpWidth``).
    var helpWidth = HelpWidth.fallback

    var reader: InputReader { InputReader(stdin: stdin) }
    var loader: CertificateLoader { CertificateLoader(reader: reader, stderr: stderr) }
}

extension BackendRegistry {
    /// The backend names as an option's value placeholder, e.g. `openssl|gnutls`.
    static var choices: String { standard.names.joined(separator: "|") }

    /// Resolves the `--backend` option of `command`: nil means the default.
    /// - Throws: ``CLIError/usage(_:command:)`` for a name that is not a backend.
    func resolve(_ name: String?, command: String) throws(CLIError) -> any TrustBackend {
        let chosen = name ?? defaultName
        guard let backend = backend(named: chosen) else {
            throw .usage("unknown backend '\(chosen)' (choose \(names.joined(separator: ", ")))", command: command)
        }
        return backend
    }
}

/// One `certkit` subcommand.
protocol Command {
    /// The subcommand's name, e.g. `convert`.
    static var name: String { get }
    /// One line for the tool's help.
    static var summary: String { get }
    /// The command's help.
    static var help: HelpPage { get }
    /// The options the command accepts.
    static var options: [OptionSpec] { get }
    /// What the command's arguments (after the options) are, for shell completion.
    static var operands: OptionSpec.ValueKind { get }

    /// Runs with parsed arguments and returns the exit code.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode
}

extension Command {
    /// Files, unless the command says otherwise.
    static var operands: OptionSpec.ValueKind { .file }
}

/// A command made of subcommands (`certkit trust add`): it reads its arguments itself.
protocol CommandGroup {
    /// Runs `arguments` (after the group's name) and returns the exit code.
    static func dispatch(_ arguments: [String], context: CommandContext) throws(CLIError) -> ExitCode
}
