import CertKit

/// The exit codes of `certkit` (Docs/CLI.md, exit codes).
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Success; for `evaluate`, trusted (`unspecified` or `proceed`).
    case success = 0
    /// An input error: a missing, unreadable or directory path, or a file with no usable certificate.
    case inputError = 1
    /// A usage error: bad options or arguments.
    case usage = 2
    /// `--backend both`: the backends disagree.
    case backendsDisagree = 3
    /// `recoverableTrustFailure`.
    case recoverableTrustFailure = 10
    /// `fatalTrustFailure`.
    case fatalTrustFailure = 11
    /// `deny`.
    case deny = 12
    /// `otherError` (or a result that is not a verdict at all, such as `invalid`).
    case otherError = 13

    /// The exit code for an evaluation result.
    public init(result: TrustResultType) {
        switch result {
        case .proceed, .unspecified: self = .success
        case .recoverableTrustFailure: self = .recoverableTrustFailure
        case .fatalTrustFailure: self = .fatalTrustFailure
        case .deny: self = .deny
        case .otherError, .invalid: self = .otherError
        }
    }
}
