import Foundation

/// Everything a policy check needs to judge one candidate path.
public struct PathContext: Sendable {
    /// The candidate path, leaf first.
    public var path: CandidatePath
    /// The policy being checked.
    public var policy: TrustPolicy
    /// The verification time.
    public var date: Date
    /// SPKI pins (empty: no pinning).
    public var pins: [SPKIPin]
    /// Trust settings.
    public var trustSettings: TrustSettings
    /// Maximum number of certificates in a path.
    public var maxDepth: Int
    /// True when the path's anchor was supplied by the application (not the system bundle).
    public var anchorIsAppSupplied: Bool

    /// The certificates.
    public var certificates: [Certificate] { path.certificates }

    /// The index of the anchor, when the path ends at one.
    public var anchorIndex: Int? { path.endsAtAnchor ? path.certificates.count - 1 : nil }

    /// Indices of the certificates that act as issuers (everything but the leaf).
    public var issuerIndices: Range<Int> { 1..<max(1, path.certificates.count) }

    /// Creates a context.
    public init(
        path: CandidatePath, policy: TrustPolicy, date: Date, pins: [SPKIPin] = [],
        trustSettings: TrustSettings = .none, maxDepth: Int = TrustEvaluation.defaultMaxDepth,
        anchorIsAppSupplied: Bool = true
    ) {
        self.path = path
        self.policy = policy
        self.date = date
        self.pins = pins
        self.trustSettings = trustSettings
        self.maxDepth = maxDepth
        self.anchorIsAppSupplied = anchorIsAppSupplied
    }
}

/// One policy rule, evaluated by the core identically for every backend (DESIGN §2).
public protocol PathCheck: Sendable {
    /// Records this rule's failures for `context` into `findings`.
    func check(_ context: PathContext, into findings: inout PathFindings)
}

/// The core's rule set, in a fixed order.
public enum CorePolicy {
    /// Every rule the core applies to a candidate path.
    public static let checks: [any PathCheck] = [
        ValidityCheck(), CAConstraintsCheck(), ExtensionIntegrityCheck(), ExtendedKeyUsageCheck(),
        PeerNameCheck(), NameConstraintsCheck(), AlgorithmStrengthCheck(), AppleServerProfileCheck(),
        PinCheck(), DistrustCheck(), ChainLengthCheck(), PathCompletenessCheck(),
    ]

    /// Runs every rule on `context`.
    public static func findings(for context: PathContext) -> PathFindings {
        var findings = PathFindings(count: context.certificates.count)
        for rule in checks { rule.check(context, into: &findings) }
        return findings
    }
}
