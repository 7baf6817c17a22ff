/// What every command gets: the standard streams and the backends.
struct CommandContext {
    let stdin: any ByteSource
    let stdout: any ByteSink
    let stderr: any ByteSink
    let registry: BackendRegistry

    var reader: InputReader { InputReader(stdin: stdin) }
    var loader: CertificateLoader { CertificateLoader(reader: reader, stderr: stderr) }
}

/// One `certkit` subcommand.
protocol Command {
    /// The subcommand's name, e.g. `convert`.
    static var name: String { get }
    /// One line for the tool's help.
    static var summary: String { get }
    /// The command's help text.
    static var help: String { get }
    /// The options the command accepts.
    static var options: [OptionSpec] { get }

    /// Runs with parsed arguments and returns the exit code.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode
}
