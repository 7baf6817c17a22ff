/// Keeps text quoted from an input short, so that an error about a hostile input is one short line whatever the
/// input holds (a 1 MB PEM label, a 100 KB OID, 80,000 distinct labels). Showing it safely (control and format
/// characters escaped) is `DisplayText`'s job, at the point where text is printed.
package enum MessageText {
    /// The longest piece of input quoted in a message (a label, an OID, a name).
    package static let quoteLimit = 64

    /// `text` cut to `limit` Unicode scalars, ending in `…` when it was longer.
    package static func line(_ text: String, limit: Int = quoteLimit) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out.append("…")
                return String(out)
            }
            out.append(scalar)
            count += 1
        }
        return String(out)
    }

    /// One short summary of many items: up to `shown` of them (each clipped), then how many more, e.g.
    /// `LABEL 1, LABEL 2, LABEL 3 and 79997 more`.
    package static func summary(_ items: [String], shown: Int = 3) -> String {
        let head = items.prefix(shown).map { line($0) }.joined(separator: ", ")
        return items.count > shown ? "\(head) and \(items.count - shown) more" : head
    }
}
