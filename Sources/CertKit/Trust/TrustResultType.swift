/// The outcome of an evaluation, mirroring `SecTrustResultType` including its raw values.
public enum TrustResultType: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible, Codable {
    /// Not evaluated yet, or an input changed since.
    case invalid = 0
    /// Trusted because the user said so: an always-trust setting or accepted exceptions.
    case proceed = 1
    /// Explicitly distrusted by a trust setting.
    case deny = 3
    /// Trusted by the anchors, with no user setting involved.
    case unspecified = 4
    /// Not trusted, but the user may choose to trust it (expired, wrong host, unknown root, ...).
    case recoverableTrustFailure = 5
    /// Not trusted and not fixable by the user (revoked, broken hash, tiny key).
    case fatalTrustFailure = 6
    /// The evaluation itself failed (backend error, out of memory).
    case otherError = 7

    /// True exactly for ``proceed`` and ``unspecified``, as `SecTrustEvaluateWithError` returns true.
    public var isTrusted: Bool { self == .proceed || self == .unspecified }

    public var description: String {
        switch self {
        case .invalid: "invalid"
        case .proceed: "proceed"
        case .deny: "deny"
        case .unspecified: "unspecified"
        case .recoverableTrustFailure: "recoverableTrustFailure"
        case .fatalTrustFailure: "fatalTrustFailure"
        case .otherError: "otherError"
        }
    }

    /// Parses the names printed by ``description``.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = match
    }
}
