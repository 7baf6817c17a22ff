import Foundation

/// The Certificate Transparency requirement of one profile, as data (Docs/Profiles.md, "Certificate
/// Transparency"): when it applies, how old a log list may be, what every compliant leaf needs, and the
/// alternative ways to comply (one is enough).
package struct CTPolicy: Sendable {
    /// Whether an SCT's log must be approved now, or may have been approved when it issued the SCT.
    package enum Approval: Sendable, Hashable {
        /// The log is qualified, usable or read-only.
        case current
        /// As ``current``, or retired after the SCT's timestamp.
        case onceOrCurrent
    }

    /// A count of valid SCTs: those delivered by one of `sources`, from logs of `approval` (RFC 6962 logs only
    /// when `rfc6962Only`), each log counted once; at most `perOperatorCap` logs of one operator count; at least
    /// `logs` logs and `operators` operators are needed.
    package struct Count: Sendable {
        package var sources: Set<SCTSource>
        package var approval: Approval
        package var logs: Int
        package var perOperatorCap: Int? = nil
        package var operators: Int = 0
        package var rfc6962Only: Bool = false
    }

    /// A count chosen by the leaf's lifetime (notAfter − notBefore): the first tier whose `maxLifetimeDays` is nil
    /// or not exceeded.
    package struct Tier: Sendable {
        package var maxLifetimeDays: Int?
        package var count: Count
    }

    /// One way to comply: every requirement holds (each a list of tiers; a plain count is one tier).
    package struct Alternative: Sendable {
        package var name: String
        package var requirements: [[Tier]]
    }

    /// The rule a failure is recorded under.
    package var rule: TrustRule
    /// Only leaves issued (notBefore) on or after this date are held to the policy.
    package var enforcedFrom: Date
    /// A log list older than this (at the verify date) is not enforced.
    package var maxListAgeDays: Int
    /// What every compliant leaf needs.
    package var required: [[Tier]]
    /// The ways to comply; one is enough.
    package var alternatives: [Alternative]

    private static let every = Set(SCTSource.allCases)
    private static let delivered: Set<SCTSource> = [.tls, .ocsp]

    /// Apple's published policy (support.apple.com/103214): two SCTs from once- or currently approved logs, one
    /// from an RFC 6962 log, and either two from currently approved logs with one delivered by TLS or OCSP, or one
    /// embedded from a currently approved log and, by lifetime, 2 (≤ 180 days, at most 1 per operator) or 3
    /// (above, at most 2 per operator).
    package static let apple = CTPolicy(
        rule: TrustRules.appleCTRequired, enforcedFrom: day(2018, 10, 16), maxListAgeDays: 60,
        required: [
            [Tier(count: Count(sources: every, approval: .onceOrCurrent, logs: 2))],
            [Tier(count: Count(sources: every, approval: .onceOrCurrent, logs: 1, rfc6962Only: true))],
        ],
        alternatives: [
            Alternative(name: "TLS or OCSP", requirements: [
                [Tier(count: Count(sources: every, approval: .current, logs: 2))],
                [Tier(count: Count(sources: delivered, approval: .current, logs: 1))],
            ]),
            Alternative(name: "embedded", requirements: [
                [Tier(count: Count(sources: [.embedded], approval: .current, logs: 1))],
                [
                    Tier(maxLifetimeDays: 180, count: Count(sources: every, approval: .onceOrCurrent, logs: 2, perOperatorCap: 1)),
                    Tier(count: Count(sources: every, approval: .onceOrCurrent, logs: 3, perOperatorCap: 2)),
                ],
            ]),
        ])

    /// Chrome's policy (ct_policy.md): embedded SCTs from 2 (lifetime ≤ 180 days) or 3 distinct logs of 2
    /// operators, one of them currently approved; or 2 SCTs delivered by TLS or OCSP from currently approved logs
    /// of 2 operators.
    package static let chrome = CTPolicy(
        rule: TrustRules.webPKICTRequired, enforcedFrom: day(2018, 5, 1), maxListAgeDays: 70,
        required: [],
        alternatives: [
            Alternative(name: "embedded", requirements: [
                [Tier(count: Count(sources: [.embedded], approval: .current, logs: 1))],
                [
                    Tier(maxLifetimeDays: 180, count: Count(sources: [.embedded], approval: .onceOrCurrent, logs: 2, operators: 2)),
                    Tier(count: Count(sources: [.embedded], approval: .onceOrCurrent, logs: 3, operators: 2)),
                ],
            ]),
            Alternative(name: "TLS or OCSP", requirements: [
                [Tier(count: Count(sources: delivered, approval: .current, logs: 2, operators: 2))],
            ]),
        ])

    /// The policy of `profile`, nil for one without (rfc5280).
    package static func of(_ profile: TrustProfile) -> CTPolicy? {
        switch profile {
        case .apple: apple
        case .webpki: chrome
        case .rfc5280: nil
        }
    }

    private static func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }

    /// The name of the alternative `scts` (the valid ones) satisfy for a leaf of `lifetime` seconds, nil when none
    /// does or a requirement fails.
    package func satisfiedAlternative(by scts: [SCTStatus], lifetime: TimeInterval) -> String? {
        guard required.allSatisfy({ Self.holds($0, scts, lifetime) }) else { return nil }
        return alternatives.first { alternative in
            alternative.requirements.allSatisfy { Self.holds($0, scts, lifetime) }
        }?.name
    }

    private static func holds(_ tiers: [Tier], _ scts: [SCTStatus], _ lifetime: TimeInterval) -> Bool {
        guard let tier = tiers.first(where: { tier in
            tier.maxLifetimeDays.map { lifetime <= TimeInterval($0) * 86_400 } ?? true
        }) else { return false }
        return counts(tier.count, scts)
    }

    private static func counts(_ count: Count, _ scts: [SCTStatus]) -> Bool {
        var logsByOperator: [String: Set<[UInt8]>] = [:]
        for sct in scts where sct.problem == nil && count.sources.contains(sct.source) {
            guard let approval = sct.approval, count.approval == .onceOrCurrent || approval == .current else { continue }
            guard !count.rfc6962Only || sct.isRFC6962 else { continue }
            logsByOperator[sct.operatorName ?? "", default: []].insert(sct.logID)
        }
        let logs = logsByOperator.values.reduce(0) { $0 + min($1.count, count.perOperatorCap ?? Int.max) }
        return logs >= count.logs && logsByOperator.count >= count.operators
    }
}

/// One SCT the evaluation looked at, and whether it counts.
public struct SCTStatus: Sendable, Hashable {
    /// How it was delivered.
    public var source: SCTSource
    /// The log's description in the list (nil: not a log of the list).
    public var logDescription: String?
    /// The log's operator (nil: not a log of the list).
    public var operatorName: String?
    /// The SCT's timestamp.
    public var timestamp: Date
    /// Why it does not count (nil: it is valid and counts).
    public var problem: String?
    /// The log id the SCT names.
    package var logID: [UInt8]
    /// For a valid SCT: whether its log is approved now or was when it issued it.
    package var approval: CTPolicy.Approval?
    /// True when the log is an RFC 6962 log (not a tiled one).
    package var isRFC6962: Bool

    /// True when the SCT counts.
    public var isValid: Bool { problem == nil }
}

/// What Certificate Transparency decided for the leaf of the reported chain.
public struct CertificateTransparencyStatus: Sendable, Hashable {
    /// True: compliant; false: not (`SystemTrustedCTRequired`); nil: not enforced (``note`` says why).
    public var compliant: Bool?
    /// One line: which way the leaf complied, why it did not, or why the policy was not enforced.
    public var note: String
    /// Every SCT looked at, valid or not (empty when the policy was not enforced).
    public var scts: [SCTStatus]
}
