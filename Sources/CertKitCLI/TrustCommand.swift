import CertKit
import Foundation

/// `certkit trust`: the persistent trust store (certificates and their Apple-style trust settings), modelled on
/// macOS `security add-trusted-cert` / `remove-trusted-cert` / `dump-trust-settings`.
enum TrustCommand: Command, CommandGroup {
    static let name = "trust"
    static let summary = "manage the trust store: add, remove, list, show, export trusted certificates"
    static let options: [OptionSpec] = []

    /// The subcommands, in help order.
    static var subcommands: [any Command.Type] { [
        TrustAddCommand.self, TrustRemoveCommand.self, TrustListCommand.self, TrustShowCommand.self,
        TrustExportCommand.self,
    ] }

    /// The `--store` option every subcommand takes.
    static let storeOption = OptionSpec.value(
        "store", "DIR", "the trust store directory (default $CERTKIT_STORE, else $XDG_DATA_HOME/certkit, else ~/.local/share/certkit)")

    /// The subcommands' names without `trust `, in help order.
    static var subcommandNames: [String] {
        subcommands.map { $0.name.split(separator: " ").last.map(String.init) ?? $0.name }
    }

    static var help: HelpPage {
        HelpPage(
            usage: ["certkit trust <\(subcommandNames.joined(separator: "|"))> [options] [arguments]"],
            summary: """
                A persistent trust store: certificates with trust settings as Apple defines them (trustRoot, trustAsRoot,
                deny, unspecified; optionally limited to a policy and an SSL host; optionally allowed errors).
                'certkit evaluate --trust-store' and 'certkit connect --trust-store' use it.
                """,
            tables: [HelpPage.Table(
                heading: "subcommands",
                rows: zip(subcommandNames, subcommands).map { HelpPage.Row(term: $0, text: $1.summary) })],
            details: """
                The store is the directory --store DIR names, else $CERTKIT_STORE, else $XDG_DATA_HOME/certkit, else
                ~/.local/share/certkit (format: Docs/TrustStore.md). 'certkit trust <subcommand> --help' for details.

                exit codes: 0 success, 1 input error (unreadable, corrupt or newer store; no match), 2 usage error
                """)
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        throw .usage("no trust subcommand given", command: name)
    }

    static func dispatch(_ arguments: [String], context: CommandContext) throws(CLIError) -> ExitCode {
        guard let first = arguments.first else {
            throw .usage("no trust subcommand given (add, remove, list, show, export)", command: name)
        }
        if ["-h", "--help", "help"].contains(first) {
            context.stdout.write(help.rendered(width: context.helpWidth))
            return .success
        }
        guard let command = subcommands.first(where: { $0.name == "\(name) \(first)" }) else {
            if first.hasPrefix("-") { throw .usage(ArgumentParser.unknownOption(first, options: []), command: name) }
            let suggestion = Suggestion.closest(to: first, among: subcommandNames).map { "; did you mean '\($0)'?" } ?? ""
            throw .usage("unknown trust subcommand '\(first)'\(suggestion)", command: name)
        }
        let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), options: command.options, command: command.name)
        if parsed.helpRequested {
            context.stdout.write(command.help.rendered(width: context.helpWidth))
            return .success
        }
        return try command.run(parsed, context: context)
    }

    /// The store of a subcommand's `--store` option.
    static func store(_ arguments: ParsedArguments, context: CommandContext, command: String) throws(CLIError) -> TrustStore {
        let directory = try TrustStoreOption.directory(
            arguments.value("store"), environment: context.environment, command: command)
        return TrustStoreOption.store(directory, context: context)
    }
}

/// `certkit trust list`: every certificate of the store with its settings.
enum TrustListCommand: Command {
    static let name = "trust list"
    static let summary = "list the certificates of the store and their settings"
    static let operands = OptionSpec.ValueKind.nothing
    static let options: [OptionSpec] = [
        .flag("json", "print one JSON document: {\"certificates\": [{subject, issuer, sha256, notBefore, notAfter, selfSigned, settings}], \"store\": DIR}"),
        TrustCommand.storeOption,
    ]
    static let help = ArgumentParser.help(
        usage: "certkit trust list [--json] [--store DIR]",
        summary: "Lists every certificate of the trust store with its settings, in the order they were added.",
        options: options)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        guard arguments.positionals.isEmpty else {
            throw .usage("trust list takes no argument, got \(arguments.positionals.count)", command: name)
        }
        let store = try TrustCommand.store(arguments, context: context, command: name)
        let entries = try TrustStoreOption.run(command: name) { () throws(TrustStoreError) in try store.entries() }
        if arguments.has("json") {
            context.stdout.write(JSONValue.object([
                "store": .string(store.directory), "certificates": .array(entries.map(TrustStoreOption.json)),
            ]).rendered)
            return .success
        }
        if entries.isEmpty {
            context.stdout.write("the trust store \(DisplayText.escaped(store.directory)) is empty\n")
            return .success
        }
        context.stdout.write(entries.map(TrustStoreOption.text).joined(separator: "\n"))
        return .success
    }
}

/// `certkit trust show`: one certificate of the store, found by a SHA-256 prefix.
enum TrustShowCommand: Command {
    static let name = "trust show"
    static let summary = "show one certificate of the store and its settings"
    static let operands = OptionSpec.ValueKind.text
    static let options: [OptionSpec] = [
        .flag("json", "print the certificate's JSON object (as in 'trust list --json')"),
        .flag("pem", "print the certificate as PEM after its description"),
        TrustCommand.storeOption,
    ]
    static let help = ArgumentParser.help(
        usage: "certkit trust show [--json] [--pem] [--store DIR] SHA256-PREFIX",
        summary: """
            Shows the certificate of the trust store whose SHA-256 starts with SHA256-PREFIX (4 to 64 hex digits,
            ':' separators allowed) and its settings, first to last (the first that applies and decides wins).
            """,
        options: options)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        guard arguments.positionals.count == 1, let prefix = arguments.positionals.first else {
            throw .usage("one SHA256-PREFIX expected, got \(arguments.positionals.count)", command: name)
        }
        guard TrustStore.isSHA256Prefix(prefix) else {
            throw .usage("'\(prefix)' is not a SHA-256 prefix (4 to 64 hex digits)", command: name)
        }
        let store = try TrustCommand.store(arguments, context: context, command: name)
        let entry = try TrustStoreOption.run(command: name) { () throws(TrustStoreError) in
            try store.entry(matchingSHA256Prefix: prefix)
        }
        if arguments.has("json") {
            context.stdout.write(TrustStoreOption.json(entry).rendered)
        } else {
            context.stdout.write(TrustStoreOption.text(entry))
        }
        if arguments.has("pem") { context.stdout.write(PEM.encode(entry.certificate.derEncoded)) }
        return .success
    }
}

/// `certkit trust remove`: removes a certificate and all its settings.
enum TrustRemoveCommand: Command {
    static let name = "trust remove"
    static let summary = "remove a certificate and its settings from the store"
    static let options: [OptionSpec] = [TrustCommand.storeOption]
    static let help = ArgumentParser.help(
        usage: "certkit trust remove [--store DIR] SHA256-PREFIX|FILE",
        summary: """
            Removes a certificate and all its settings from the trust store: the one whose SHA-256 starts with
            SHA256-PREFIX (4 to 64 hex digits), or each certificate of FILE ('-' for standard input). An argument
            that names an existing file is a FILE.
            """,
        options: options)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        guard arguments.positionals.count == 1, let target = arguments.positionals.first else {
            throw .usage("one SHA256-PREFIX or FILE expected, got \(arguments.positionals.count)", command: name)
        }
        let store = try TrustCommand.store(arguments, context: context, command: name)
        let removed: [TrustStore.Entry]
        if target != "-", !FileManager.default.fileExists(atPath: target) {
            guard TrustStore.isSHA256Prefix(target) else {
                throw .input(file: target, problem: "no such file, and not a SHA-256 prefix (4 to 64 hex digits)")
            }
            removed = [try TrustStoreOption.run(command: name) { () throws(TrustStoreError) in
                try store.remove(sha256Prefix: target)
            }]
        } else {
            let certificates = try context.loader.load(target).certificates
            removed = try TrustStoreOption.run(command: name) { () throws(TrustStoreError) in
                var removed: [TrustStore.Entry] = []
                for certificate in certificates { removed.append(try store.remove(certificate)) }
                return removed
            }
        }
        for entry in removed {
            context.stdout.write(
                "removed \(NameText.display(entry.certificate.subject))\n  sha256    \(entry.sha256Hex)\n")
        }
        return .success
    }
}
