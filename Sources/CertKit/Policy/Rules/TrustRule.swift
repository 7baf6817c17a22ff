/// One rule of a verification profile: what it requires, where that is written, which profiles enforce it and
/// the check it records when a certificate breaks it.
///
/// Every failure the core records names its rule (`PathFindings/rules`, ``TrustError/rule``), so a report
/// says not only *what* failed (the Apple check name) but *which rule* of *which profile* made it fail. The
/// catalog of rules is `TrustRules`; Docs/Profiles.md lists it.
public struct TrustRule: Sendable, Hashable, CustomStringConvertible {
    /// The stable identifier, `<origin>.<name>`: `rfc5280.` for RFC 5280 rules, `webpki.` for CA/Browser Forum
    /// and root-program rules, `apple.` for Apple's own, `certkit.` for certkit's (trust settings, pins, the
    /// library's second opinion).
    public let id: String
    /// The check recorded when the rule fails (the library's verdict may record others).
    public let check: TrustCheck
    /// The profiles that enforce the rule.
    public let profiles: Set<TrustProfile>
    /// Where the rule is written, e.g. `RFC 5280 §4.1.2.2`.
    public let reference: String
    /// What the rule requires, in one sentence.
    public let summary: String
    /// `profiles` as bits (``TrustProfile/bit``): every policy check asks it, several times per evaluation.
    private let profileBits: UInt8

    /// Creates a rule.
    package init(_ id: String, _ check: TrustCheck, _ profiles: Set<TrustProfile>, _ reference: String, _ summary: String) {
        self.id = id
        self.check = check
        self.profiles = profiles
        self.reference = reference
        self.summary = summary
        self.profileBits = profiles.reduce(0) { $0 | $1.bit }
    }

    /// True when `profile` enforces the rule.
    public func isEnforced(by profile: TrustProfile) -> Bool { profileBits & profile.bit != 0 }

    /// True when every profile enforces the rule.
    package var isUniversal: Bool { profiles.count == TrustProfile.allCases.count }

    /// The enforcing profiles in the order of `TrustProfile.allCases`.
    package var orderedProfiles: [TrustProfile] { TrustProfile.allCases.filter(profiles.contains) }

    /// How the rule is named in messages: `rule webpki.rsa-modulus-multiple-of-8 (profile webpki)`,
    /// `rule rfc5280.serial-number (profiles rfc5280, webpki)`, `rule rfc5280.validity (every profile)`.
    public var citation: String {
        if isUniversal { return "rule \(id) (every profile)" }
        let names = orderedProfiles.map(\.rawValue)
        return "rule \(id) (profile\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")))"
    }

    public var description: String { id }
}
