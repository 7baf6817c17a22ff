/// The one count of RFC 5280 §6.1.4 (l)/(m) behind every pathLenConstraint decision: the intermediate CAs between
/// the leaf (index 0) and the CA at `caIndex`, self-issued ones not counted. `CAConstraintsCheck` enforces the
/// constraint with it; the audit mode's table of known library deviations uses it (with `countingSelfIssued`)
/// to recognise GnuTLS's stricter count.
enum PathLength {
    /// Intermediates strictly between index 0 and `caIndex` of `certificates`; self-issued ones count only when
    /// `countingSelfIssued` (as GnuTLS 3.7 counts them, which RFC 5280 does not).
    static func intermediates(below caIndex: Int, in certificates: [Certificate], countingSelfIssued: Bool = false) -> Int {
        guard caIndex > 1, caIndex <= certificates.count else { return 0 }
        return (1..<caIndex).filter { countingSelfIssued || !certificates[$0].isSelfIssued }.count
    }

    /// True when the CA at `caIndex` has a pathLenConstraint that the intermediates below it exceed.
    static func isExceeded(at caIndex: Int, in certificates: [Certificate], countingSelfIssued: Bool = false) -> Bool {
        guard certificates.indices.contains(caIndex),
              let limit = certificates[caIndex].extensions.basicConstraints?.pathLength else { return false }
        return intermediates(below: caIndex, in: certificates, countingSelfIssued: countingSelfIssued) > limit
    }
}
