import Foundation

/// The Public Suffix List (https://publicsuffix.org), ICANN and private sections, as Debian's `publicsuffix`
/// package installs it. Loaded once, lazily and thread-safely, the first time a Web PKI evaluation meets a
/// wildcard name (``shared``); rules are kept as A-labels so certificate names (always ASCII) compare directly.
package struct PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package installs the list.
    package static let defaultPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// Why the list could not be loaded.
    package struct LoadError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A sentence naming the file and what to install.
        package let message: String
        package var description: String { message }
    }

    /// The list at ``defaultPath``, read on first use; the error says what is missing.
    package static let shared: Result<PublicSuffixList, LoadError> = load(path: defaultPath)

    private var exact: Set<String> = []
    private var wildcard: Set<String> = []
    private var exception: Set<String> = []

    /// The number of rules read.
    package var ruleCount: Int { exact.count + wildcard.count + exception.count }

    /// Reads the list at `path`.
    package static func load(path: String) -> Result<PublicSuffixList, LoadError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(LoadError(message:
                "the Public Suffix List \(path) cannot be read (install the Debian package publicsuffix)"))
        }
        let list = PublicSuffixList(text: String(decoding: data, as: UTF8.self))
        guard list.ruleCount > 0 else {
            return .failure(LoadError(message: "the Public Suffix List \(path) holds no rules"))
        }
        return .success(list)
    }

    /// Parses the list's text: one rule per line (the first whitespace-separated token), `//` comments,
    /// `*.` wildcard rules and `!` exception rules.
    package init(text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            guard let token = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first,
                  !token.hasPrefix("//") else { continue }
            if token.hasPrefix("!") {
                if let name = Self.aLabels(token.dropFirst()) { exception.insert(name) }
            } else if token.hasPrefix("*.") {
                if let name = Self.aLabels(token.dropFirst(2)) { wildcard.insert(name) }
            } else if let name = Self.aLabels(token) {
                exact.insert(name)
            }
        }
    }

    /// True when `domain` (ASCII, any case, one trailing dot ignored) is itself a public suffix under the list's
    /// algorithm: a listed rule, or one label below a wildcard rule, and no exception rule; a single label is a
    /// public suffix by the implicit `*` rule.
    package func isPublicSuffix(_ domain: String) -> Bool {
        var name = domain.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty else { return false }
        if exception.contains(name) { return false }
        guard let dot = name.firstIndex(of: ".") else { return true }
        return exact.contains(name) || wildcard.contains(String(name[name.index(after: dot)...]))
    }

    private static func aLabels(_ rule: Substring) -> String? {
        var labels: [String] = []
        for label in rule.lowercased().split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty, let ascii = Punycode.aLabel(label) else { return nil }
            labels.append(ascii)
        }
        return labels.joined(separator: ".")
    }
}
