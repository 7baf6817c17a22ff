/// A failure that ends a command: rendered as one stderr line and mapped to an exit code.
enum CLIError: Error, Equatable {
    /// Bad arguments: `certkit: <problem> (see 'certkit <command> --help')`, exit 2.
    case usage(String, command: String?)
    /// A bad input file (missing, unreadable, a directory, not a certificate): `certkit: <file>: <problem>`, exit 1.
    case input(file: String, problem: String)
    /// An output file that could not be written: `certkit: <file>: <problem>`, exit 1.
    case output(file: String, problem: String)
    /// A backend failure outside trust evaluation (e.g. a digest): `certkit: <backend>: <problem>`, exit 13.
    case backend(name: String, problem: String)

    /// The single stderr line, without the trailing newline.
    var line: String {
        switch self {
        case .usage(let problem, let command):
            let helpCommand = command.map { "certkit \($0) --help" } ?? "certkit --help"
            return "certkit: \(problem) (see '\(helpCommand)')"
        case .input(let file, let problem), .output(let file, let problem):
            return "certkit: \(file): \(problem)"
        case .backend(let name, let problem):
            return "certkit: \(name): \(problem)"
        }
    }

    /// The process exit code.
    var exitCode: ExitCode {
        switch self {
        case .usage: .usage
        case .input, .output: .inputError
        case .backend: .otherError
        }
    }
}
