import Foundation

/// A schedule of TLS leaf validity-period maximums by issuance date: which `notAfter − notBefore` a leaf may have,
/// given its notBefore. Data, not code: a schedule that changes (the CA/Browser Forum's ballot SC-081, once Apple
/// adopts it) is one more ``Row``.
///
/// A leaf's lifetime is `notAfter − notBefore` in seconds, as trustd compares it (`SecCertificateNotValidAfter −
/// SecCertificateNotValidBefore`) and Chrome does; a leaf whose lifetime is exactly the maximum passes, one second
/// more fails. certkit's validity check includes the notAfter second (RFC 5280 §4.1.2.5), so such a leaf is valid
/// for the maximum plus one second — the period the Baseline Requirements (§1.6.1, "inclusive") would count.
package struct ValidityPeriodSchedule: Sendable {
    /// Leaves issued from ``issued`` on (after it, when ``startsAfter``) may be valid for at most ``maximum`` seconds,
    /// until the next row starts.
    package struct Row: Sendable {
        /// When the row starts.
        package let issued: Date
        /// True when a leaf issued exactly at ``issued`` is not yet under the row (trustd compares `>`).
        package let startsAfter: Bool
        /// The longest `notAfter − notBefore`, in seconds.
        package let maximum: TimeInterval

        /// A row for leaves issued on or after `issued` (after it, when `startsAfter`): at most `days` days and
        /// `slip` seconds.
        init(_ issued: Date, startsAfter: Bool = false, days: Int, slip: TimeInterval = 0) {
            self.issued = issued
            self.startsAfter = startsAfter
            maximum = TimeInterval(days) * 86_400 + slip
        }

        /// True when a leaf issued at `notBefore` falls under the row (or under a later one).
        func covers(_ notBefore: Date) -> Bool { startsAfter ? notBefore > issued : notBefore >= issued }
    }

    /// The rows, oldest first.
    package let rows: [Row]

    /// The maximum for a leaf issued at `notBefore` (the latest row that covers it); nil when no row does.
    package func maximum(issuedAt notBefore: Date) -> TimeInterval? {
        rows.last { $0.covers(notBefore) }?.maximum
    }

    /// The failure note when a leaf's lifetime exceeds the schedule's maximum for its issuance; nil when it does
    /// not, or when no row covers the leaf.
    package func excess(of leaf: Certificate) -> String? {
        guard let maximum = maximum(issuedAt: leaf.notBefore) else { return nil }
        let lifetime = leaf.notAfter.timeIntervalSince(leaf.notBefore)
        guard lifetime > maximum else { return nil }
        return "validity of \(Self.text(lifetime)) exceeds \(Self.text(maximum)) for a leaf issued "
            + ISO8601Text.timestamp(leaf.notBefore)
    }

    /// `825 days` or `825 days and 3600 s`.
    static func text(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded(.down))
        let days = whole / 86_400, rest = whole % 86_400
        return rest == 0 ? "\(days) days" : "\(days) days and \(rest) s"
    }
}

extension ValidityPeriodSchedule {
    /// 825 days and an hour's slip.
    private static let slip: TimeInterval = 3_600

    /// trustd (Security-61901, SecPolicyServer.c `check_validity_period_maximums`, SecPolicy.c
    /// `set_ssl_validity_periods`; Apple support 102028), a chain to an anchor the app supplied
    /// (SecTrustSetAnchorCertificates): leaves issued after CFAbsoluteTime 583628400 (2019-06-30T23:00:00Z, compared
    /// with `>`) are valid for at most 825 days and 3600 s.
    package static let appleAppSupplied = Self(rows: [
        Row(Date(timeIntervalSince1970: 1_561_935_600), startsAfter: true, days: 825, slip: slip),
    ])

    /// trustd (same source), a chain to a system root: leaves issued on or after 2018-03-01T00:00:00Z (CFAbsoluteTime
    /// 541555200) at most 825 days and 3600 s; on or after 2020-09-01T00:00:00Z (620611200) at most 398 days.
    /// The CA/Browser Forum's SC-081 schedule (200 days from 2026-03-15, 100 from 2027-03-15, 47 from 2029-03-15)
    /// becomes three rows here once trustd applies it.
    package static let appleSystem = Self(rows: [
        Row(Date(timeIntervalSince1970: 1_519_862_400), days: 825, slip: slip),
        Row(Date(timeIntervalSince1970: 1_598_918_400), days: 398),
    ])

    /// The CA/Browser Forum Baseline Requirements §6.3.2 as amended by ballot SC-081, by issuance date: at most 398
    /// days before 2026-03-15, 200 days from 2026-03-15T00:00:00Z, 100 from 2027-03-15, 47 from 2029-03-15.
    package static let webPKI = Self(rows: [
        Row(.distantPast, days: 398),
        Row(Date(timeIntervalSince1970: 1_773_532_800), days: 200),
        Row(Date(timeIntervalSince1970: 1_805_068_800), days: 100),
        Row(Date(timeIntervalSince1970: 1_868_227_200), days: 47),
    ])
}
