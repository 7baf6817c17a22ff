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
    /// True when the value is optional: `--name` alone is a flag, `--name=VALUE` gives a value, and so does a
    /// following argument that ``takesNext`` accepts.
    var optionalValue = false
    /// For an optional value: whether the next argument (one that does not start with `-`) is the value rather
    /// than a positional argument.
    var takesNext: (@Sendable (String) -> Bool)?

    /// A flag (no value).
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, repeatable: false, help: help)
    }

    /// An option with a value; `repeatable` lets it occur more than once.
    static func value(_ name: String, _ valueName: String, repeatable: Bool = false, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, repeatable: repeatable, help: help)
    }

    /// An option whose value is optional: `--name=VALUE`, or `--name VALUE` when `takesNext` accepts VALUE;
    /// `--name` alone sets the flag.
    static func optionalValue(
        _ name: String, _ valueName: String, _ help: String, takesNext: @escaping @Sendable (String) -> Bool
    ) -> OptionSpec {
        OptionSpec(
            name: name, valueName: valueName, repeatable: false, help: help, optionalValue: true, takesNext: takesNext)
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
                throw .usage("unknown option '\(argument)'", command: command)
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
                throw .usage("unknown option '--\(name)'", command: command)
            }
            if spec.optionalValue {
                if parsed.flags.contains(name) || parsed.values[name] != nil {
                    throw .usage("option '--\(name)' given more than once", command: command)
                }
                if let inlineValue {
                    parsed.values[name] = [inlineValue]
                } else if !optionsEnded, index < arguments.count, !arguments[index].hasPrefix("-"),
                          spec.takesNext?(arguments[index]) == true {
                    parsed.values[name] = [arguments[index]]
                    index += 1
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

    /// Help text for a command: usage line, description and one line per option.
    static func help(usage: String, summary: String, options: [OptionSpec], details: String = "") -> String {
        var lines = ["usage: \(usage)", "", summary, "", "options:"]
        let rendered = options.map { spec -> (String, String) in
            let left = "--\(spec.name)" + (spec.valueName.map { spec.optionalValue ? " [\($0)]" : " \($0)" } ?? "")
            return (left, spec.help + (spec.repeatable ? " (repeatable)" : ""))
        } + [("-h, --help", "show this help")]
        let width = rendered.map(\.0.count).max() ?? 0
        for (left, right) in rendered {
            lines.append("  " + left + String(repeating: " ", count: width - left.count + 2) + right)
        }
        if !details.isEmpty { lines += ["", details] }
        return lines.joined(separator: "\n") + "\n"
    }
}
