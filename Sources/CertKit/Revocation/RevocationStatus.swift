import Foundation

/// Where a revocation answer came from.
public enum RevocationSource: String, Sendable, Hashable, CaseIterable {
    /// An OCSP response given to the evaluation (stapled by the TLS server, or `--ocsp-response`).
    case stapledOCSP
    /// An OCSP response fetched from the responder named in the certificate.
    case ocsp
    /// A CRL given to the evaluation (`--crl`).
    case crlFile
    /// A CRL fetched from the certificate's cRLDistributionPoints.
    case crlFetched
}

/// Whether revocation was checked for one certificate of the reported chain, how, and until when the answer holds.
public struct RevocationStatus: Sendable, Hashable {
    /// What the check found.
    public enum Outcome: String, Sendable, Hashable {
        /// Not checked: no usable answer (no source, only `unknown` answers, or only answers that did not validate).
        case notChecked
        /// A valid answer says the certificate is not revoked.
        case good
        /// A valid answer says the certificate is revoked.
        case revoked
        /// Not applicable: the anchor, or a certificate whose issuer is not in the chain.
        case notApplicable
    }

    /// What the check found.
    public var outcome: Outcome
    /// The source of the answer (nil when not checked).
    public var source: RevocationSource?
    /// Until when the answer is valid (the response's or CRL's nextUpdate; nil when it has none or there is none).
    public var validUntil: Date?

    /// Creates a status.
    package init(outcome: Outcome, source: RevocationSource? = nil, validUntil: Date? = nil) {
        self.outcome = outcome
        self.source = source
        self.validUntil = validUntil
    }

    /// True when a valid answer was used.
    public var isChecked: Bool { outcome == .good || outcome == .revoked }
}
