/// Which revocation sources an evaluation uses (`--revocation off|crl|ocsp|any`), as `SecPolicyCreateRevocation`'s
/// method flags choose them.
public enum RevocationMode: String, Sendable, Hashable, CaseIterable {
    /// No revocation checking: CRLs and OCSP responses given are ignored.
    case off
    /// CRLs only.
    case crl
    /// OCSP responses only.
    case ocsp
    /// CRLs and OCSP responses (the default).
    case any

    /// True when CRLs are used.
    public var usesCRLs: Bool { self == .crl || self == .any }
    /// True when OCSP responses are used.
    public var usesOCSP: Bool { self == .ocsp || self == .any }
}
