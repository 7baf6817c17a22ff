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
    /// For a revoked certificate: when it was revoked (the OCSP revocationTime or the CRL entry's revocationDate).
    public var revocationDate: Date?
    /// For a revoked certificate: the reason the answer gives (an RFC 5280 CRLReason value), when it gives one.
    public var revocationReason: Int?

    /// Creates a status.
    package init(
        outcome: Outcome, source: RevocationSource? = nil, validUntil: Date? = nil, revocationDate: Date? = nil,
        revocationReason: Int? = nil
    ) {
        self.outcome = outcome
        self.source = source
        self.validUntil = validUntil
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
    }

    /// The name of an RFC 5280 CRLReason value (`keyCompromise`, ...), or `reason N` for one it does not define.
    public static func reasonName(_ reason: Int) -> String {
        let names = [
            0: "unspecified", 1: "keyCompromise", 2: "cACompromise", 3: "affiliationChanged", 4: "superseded",
            5: "cessationOfOperation", 6: "certificateHold", 8: "removeFromCRL", 9: "privilegeWithdrawn",
            10: "aACompromise",
        ]
        return names[reason] ?? "reason \(reason)"
    }

    /// True when a valid answer was used.
    public var isChecked: Bool { outcome == .good || outcome == .revoked }
}
