/// Every command and subcommand of `certkit`, as the parser knows them: the source of `--help`, the man page and
/// the shell completions.
enum CommandTable {
    /// One command: its words after `certkit` (`evaluate`, `trust add`) and its type.
    struct Entry {
        /// The words after `certkit`, e.g. `trust add`.
        let path: String
        /// The command.
        let command: any Command.Type

        /// The command's help page.
        var help: HelpPage { command.help }
        /// The options the parser accepts.
        var options: [OptionSpec] { command.options }
        /// Its subcommands' names (`add`, `remove`, ...), empty for a plain command.
        var subcommands: [String] { command == TrustCommand.self ? TrustCommand.subcommandNames : [] }
        /// True for a command made of subcommands.
        var isGroup: Bool { !subcommands.isEmpty }
    }

    /// The commands in help order, each group followed by its subcommands.
    static var all: [Entry] {
        CertKitCommand.commands.flatMap { command -> [Entry] in
            let entry = Entry(path: command.name, command: command)
            guard command == TrustCommand.self else { return [entry] }
            return [entry] + TrustCommand.subcommands.map { Entry(path: $0.name, command: $0) }
        }
    }

    /// The top-level command names.
    static var topLevel: [Entry] { all.filter { !$0.path.contains(" ") } }
}

extension OptionSpec {
    /// What an option's value (or a command's operands) is, for shell completion.
    enum ValueKind: Sendable, Equatable {
        /// A file name.
        case file
        /// A directory name.
        case directory
        /// One of these words.
        case choices([String])
        /// Free text (a host name, a number, a date): nothing to complete.
        case text
        /// No value at all.
        case nothing
    }

    /// The kind of the option's value, read from its placeholder: `FILE`, `FILE.p12`, `FILE|-` are files, `DIR` a
    /// directory, `a|b|c` of lower-case words the choices a, b and c, any other placeholder free text.
    var valueKind: ValueKind {
        guard let valueName else { return .nothing }
        let parts = valueName.split(separator: "|").map(String.init)
        if parts.contains(where: { $0.hasPrefix("FILE") }) { return .file }
        if parts == ["DIR"] { return .directory }
        if parts.count > 1, parts.allSatisfy({ $0.contains(where: \.isLowercase) }) { return .choices(parts) }
        return .text
    }
}
