import CertKit
import Foundation

/// File names for `--out-dir`: position and subject CN, e.g. `01-leaf.example.der`.
enum OutputNaming {
    /// The longest CN part kept in a file name.
    static let maximumNameLength = 64

    /// `<DIR>/<NN>-<sanitized CN or "certificate">.<extension>`; NN has at least two digits.
    static func fileName(
        position: Int, count: Int, certificate: Certificate, extension: String, in directory: String
    ) -> String {
        let width = max(2, String(count).count)
        let number = String(position + 1)
        let prefix = String(repeating: "0", count: width - number.count) + number
        let base = sanitize(certificate.subject.commonName ?? "") ?? "certificate"
        return URL(fileURLWithPath: directory).appendingPathComponent("\(prefix)-\(base).\(`extension`)").path
    }

    /// Keeps `[A-Za-z0-9._-]`, replaces runs of anything else with `_`, trims `._-` from the ends, and
    /// truncates; nil when nothing is left.
    static func sanitize(_ name: String) -> String? {
        var out = ""
        var lastWasReplacement = false
        for scalar in name.unicodeScalars {
            let allowed = scalar.isASCII
                && (CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "-" || scalar == "_")
            if allowed {
                out.unicodeScalars.append(scalar)
                lastWasReplacement = false
            } else if !lastWasReplacement {
                out += "_"
                lastWasReplacement = true
            }
        }
        let trimmed = out.trimmingCharacters(in: CharacterSet(charactersIn: "._-"))
        let truncated = String(trimmed.prefix(maximumNameLength))
        return truncated.isEmpty ? nil : truncated
    }
}
