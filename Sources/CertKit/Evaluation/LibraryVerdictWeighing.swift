extension PathFindings {
    /// Adds the library's second opinion (DESIGN §2): a finding explained by the core's own findings adds
    /// nothing; any other is recorded as its ``LibraryFinding/otherwise`` check, so the library can only add
    /// failures and a status nobody mapped fails closed.
    mutating func weigh(_ libraryFindings: [LibraryFinding], from backend: String) {
        for finding in libraryFindings {
            let explained: Bool
            if let index = finding.index, checks.indices.contains(index) {
                explained = !checks[index].isDisjoint(with: finding.explainedBy)
            } else {
                explained = checks.contains { !$0.isDisjoint(with: finding.explainedBy) }
            }
            if explained { continue }
            let index = min(max(finding.index ?? 0, 0), max(checks.count - 1, 0))
            record(TrustRules.libraryVerdict, as: finding.otherwise, at: index, note: "\(backend): \(finding.note)")
        }
    }
}
