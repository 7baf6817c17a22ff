import Foundation

/// A help text kept in parts — usage lines, a summary, tables of terms (options, commands) and detail paragraphs —
/// so that `--help` wraps the words to the terminal's width and `certkit help --man` sets the same words as a man
/// page. There is no other copy of any help text.
struct HelpPage: Sendable {
    /// One row of a table: a term (`--out FILE`, `convert`) and what it means.
    struct Row: Sendable, Equatable {
        var term: String
        var text: String
    }

    /// A table under a heading (`options`, `commands`).
    struct Table: Sendable {
        var heading: String
        var rows: [Row]
    }

    /// The usage lines, each a command line without `usage: `.
    var usage: [String]
    /// What the command does: paragraphs separated by blank lines (a line break inside one is a space).
    var summary: String
    /// The tables, in order.
    var tables: [Table]
    /// Paragraphs after the tables, separated by blank lines.
    var details: String

    /// The page of a command with `options` (the `-h, --help` row is added).
    init(usage: String, summary: String, options: [OptionSpec], details: String = "") {
        self.usage = usage.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        self.summary = summary
        self.tables = [Table(
            heading: "options", rows: options.map(\.helpRow) + [Row(term: "-h, --help", text: "show this help")])]
        self.details = details
    }

    /// A page made of explicit tables.
    init(usage: [String], summary: String, tables: [Table], details: String = "") {
        self.usage = usage
        self.summary = summary
        self.tables = tables
        self.details = details
    }

    /// The paragraphs of `text`: blank lines separate them, and the lines of one are joined with spaces.
    static func paragraphs(_ text: String) -> [String] {
        var paragraphs: [String] = []
        var current: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
                current = []
            } else {
                current.append(trimmed)
            }
        }
        if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
        return paragraphs
    }

    /// `text` broken into lines of at most `width` characters at spaces (a longer word stays whole on its own
    /// line): the first line starts with `first`, the others with `rest`.
    static func wrap(_ text: String, width: Int, first: String = "", rest: String = "") -> [String] {
        wrap(words: text.split(separator: " ").map(String.init), width: width, first: first, rest: rest)
    }

    /// `words` joined by spaces into lines as ``wrap(_:width:first:rest:)`` does.
    static func wrap(words: [String], width: Int, first: String = "", rest: String = "") -> [String] {
        var lines: [String] = []
        var line = first
        var empty = true
        for word in words {
            if !empty, line.count + 1 + word.count > width {
                lines.append(line)
                line = rest + word
            } else {
                line += (empty ? "" : " ") + word
            }
            empty = false
        }
        lines.append(line)
        return lines
    }

    /// The words of a usage line, a bracketed group (`[--jobs N]`) kept as one.
    static func usageWords(_ usage: String) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        for character in usage {
            if character == " ", depth == 0 {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if character == "[" { depth += 1 }
            if character == "]" { depth = max(0, depth - 1) }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The page as `--help` prints it, wrapped to `width` columns.
    func rendered(width: Int) -> String {
        var lines: [String] = []
        for (index, usage) in usage.enumerated() {
            let prefix = index == 0 ? "usage: " : "       "
            let rest = String(repeating: " ", count: prefix.count + 4)
            // A group too long for a line of its own is broken at its spaces after all.
            let words = Self.usageWords(usage).flatMap { word in
                word.count > width - rest.count ? word.split(separator: " ").map(String.init) : [word]
            }
            lines += Self.wrap(words: words, width: width, first: prefix, rest: rest)
        }
        for paragraph in Self.paragraphs(summary) {
            lines.append("")
            lines += Self.wrap(paragraph, width: width)
        }
        for table in tables {
            lines += ["", table.heading + ":"]
            lines += Self.rendered(table.rows, width: width)
        }
        for paragraph in Self.paragraphs(details) {
            lines.append("")
            lines += Self.wrap(paragraph, width: width)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A table's rows: the terms in a column (at most two fifths of the width; a longer term gets its own line),
    /// the texts wrapped beside them.
    private static func rendered(_ rows: [Row], width: Int) -> [String] {
        let column = min(rows.map(\.term.count).max() ?? 0, max(10, (width - 4) * 2 / 5))
        let indent = String(repeating: " ", count: 2 + column + 2)
        var lines: [String] = []
        for row in rows {
            if row.term.count <= column {
                let first = "  " + row.term + String(repeating: " ", count: column - row.term.count + 2)
                lines += wrap(row.text, width: width, first: first, rest: indent)
            } else {
                lines.append("  " + row.term)
                lines += wrap(row.text, width: width, first: indent, rest: indent)
            }
        }
        return lines
    }
}

extension OptionSpec {
    /// The option as help shows it: `--out FILE`, `--json`, `--trust-store[=DIR]`.
    var term: String {
        guard let valueName else { return "--\(name)" }
        return optionalValue ? "--\(name)[=\(valueName)]" : "--\(name) \(valueName)"
    }

    /// The option's row in a help table.
    var helpRow: HelpPage.Row {
        HelpPage.Row(term: term, text: help + (repeatable ? " (repeatable)" : ""))
    }
}

/// The width help is wrapped to: `COLUMNS` when set, else the terminal's width when standard output is one, else 80.
enum HelpWidth {
    /// The width when standard output is not a terminal and `COLUMNS` is not set.
    static let fallback = 80
    /// The narrowest width used, whatever `COLUMNS` or the terminal says.
    static let minimum = 40

    /// The width for `environment` and `stdout`.
    static func columns(environment: [String: String], stdout: any ByteSink) -> Int {
        if let text = environment["COLUMNS"], let value = Int(text.trimmingCharacters(in: .whitespaces)), value > 0 {
            return max(minimum, value)
        }
        if let terminal = (stdout as? FileHandleSink)?.terminalColumns, terminal > 0 {
            return max(minimum, terminal)
        }
        return fallback
    }
}
