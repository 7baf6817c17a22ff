/// One option a command accepts.
struct OptionSpec: Sendable {
    /// The long name without dashes, e.g. `out`.
    let name: String
    /// The placeholder shown in help for the value, or nil for a flag.
    let valueName: String?
    /// True when the option may be given more than once (values accumulate).
    let repeatable: Bool
    /// One line of help.
    let help: String
    /// True when the value is optional: `--name` alone is a flag and `--name=VALUE` gives a value; the next
    /// argument is never taken as the value (it may be a positional argument).
    var optionalValue = false

    /// A flag (no value).
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, repeatable: false, help: help)
    }

    /// An option with a value; `repeatable` lets it occur more than once.
    static func value(_ name: String, _ valueName: String, repeatable: Bool = false, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, repeatable: repeatable, help: help)
    }

    /// An option whose value is optional and given only as `--name=VALUE`; `--name` alone sets the flag.
    static func optionalValue(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, repeatable: false, help: help, optionalValue: true)
    }
}

/// The result of parsing a command's arguments.
struct ParsedArguments: Sendable {
    /// Values by option name, in the order given.
    var values: [String: [String]] = [:]
    /// Flags that were given.
    var flags: Set<String> = []
    /// Positional arguments (`-` included), in order.
    var positionals: [String] = []
    /// True when `-h` or `--help` appeared before `--`.
    var helpRequested = false

    /// The single value of `name`, if given.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// True when the flag was given.
    func has(_ name: String) -> Bool { flags.contains(name) }
}

/// A small long-option parser: `--name value`, `--name=value`, flags, `--` to end options, `-` as a positional.
enum ArgumentParser {
    /// Parses `arguments` against `options`.
    /// - Throws: ``CLIError/usage(_:command:)`` for unknown options, missing values, values given to flags and
    ///   non-repeatable options given twice.
    static func parse(_ arguments: [String], options: [OptionSpec], command: String) throws(CLIError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                parsed.helpRequested = true
                continue
            }
            guard argument.hasPrefix("--") else {
                throw .usage(unknownOption(argument, options: options), command: command)
            }
            let body = argument.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw .usage(unknownOption("--" + name, options: options), command: command)
            }
            if spec.optionalValue {
                if parsed.flags.contains(name) || parsed.values[name] != nil {
                    throw .usage("option '--\(name)' given more than once", command: command)
                }
                if let inlineValue {
                    parsed.values[name] = [inlineValue]
                } else {
                    parsed.flags.insert(name)
                }
                continue
            }
            if spec.valueName == nil {
                if inlineValue != nil { throw .usage("option '--\(name)' takes no value", command: command) }
                if parsed.flags.contains(name) {
                    throw .usage("option '--\(name)' given more than once", command: command)
                }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw .usage("option '--\(name)' needs a value", command: command)
                }
                value = arguments[index]
                index += 1
            }
            if !spec.repeatable, parsed.values[name] != nil {
                throw .usage("option '--\(name)' given more than once", command: command)
            }
            parsed.values[name, default: []].append(value)
        }
        return parsed
    }

    /// The help page of a command: usage, description, one row per option, then `details`.
    static func help(usage: String, summary: String, options: [OptionSpec], details: String = "") -> HelpPage {
        HelpPage(usage: usage, summary: summary, options: options, details: details)
    }

    /// The message for an unknown option `argument` (`--name` or `-x`, any `=VALUE` removed): a password option
    /// points to the two ways a password is given; a near miss of a known option is suggested.
    static func unknownOption(_ argument: String, options: [OptionSpec]) -> String {
        let message = "unknown option '\(argument)'"
        let bare = String(argument.drop(while: { $0 == "-" }))
        let names = options.map(\.name)
        if bare.lowercased().hasPrefix("pass"), names.contains("password-file") {
            return message + "; a password is never taken from the command line: use --password-file FILE or --password-env VAR"
        }
        if !argument.hasPrefix("--"), names.contains(bare) {
            return message + "; did you mean '--\(bare)'?"
        }
        return message + (Suggestion.closest(to: bare, among: names).map { "; did you mean '--\($0)'?" } ?? "")
    }
}

/// "Did you mean": the known word closest to a mistyped one.
enum Suggestion {
    /// The candidate nearest `word` when it is near enough: at most one edit (insertion, deletion, substitution or
    /// swap of neighbours) per three characters of the word, at least one; or, for a word of three characters or
    /// more, the one candidate it begins. Ties go to the earlier candidate.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word, candidate)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        if let best { return best.candidate }
        let extended = candidates.filter { $0.hasPrefix(word) }
        return word.count >= 3 && extended.count == 1 ? extended[0] : nil
    }

    /// The optimal-string-alignment distance between `a` and `b` (Levenshtein plus swaps of adjacent characters).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousRow: [Int] = []
        var row = Array(0...b.count)
        for i in 1...a.count {
            var next = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    next[j] = min(next[j], previousRow[j - 2] + 1)
                }
            }
            previousRow = row
            row = next
        }
        return row[b.count]
    }
}
