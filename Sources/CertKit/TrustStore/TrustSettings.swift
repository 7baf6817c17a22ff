/// Per-certificate user trust settings, as in a keychain's trust settings (`SecTrustSettingsSetTrustSettings`).
///
/// Each certificate may carry several usage constraints (``UsageConstraint``): a result (`trustRoot`,
/// `trustAsRoot`, `deny`, `unspecified`), optionally limited to a policy and, for SSL, to a host name, and
/// optionally errors the user accepts for that certificate. ``alwaysTrust`` and ``distrust`` are shorthands for
/// one unrestricted constraint: `trustRoot` (or `trustAsRoot` for a certificate that is not self-signed) and
/// `deny`. A ``TrustStore`` provides the full form, ``certificateSettings``.
///
/// How an evaluation applies the settings, as trustd does: for each certificate of a candidate path and each
/// policy of the evaluation, the constraints that match the policy (and host) are looked at in order; the first
/// whose result is `trustRoot`, `trustAsRoot` or `deny` decides (a `trustRoot` constraint on a certificate that is
/// not self-signed, or a `trustAsRoot` one on a self-signed certificate, is ignored). A deciding `trustRoot` or
/// `trustAsRoot` makes the certificate an anchor, and a path through it that passes reads `proceed`; `deny` gives
/// `UsageConstraints` and the result `deny`. The allowed errors of every matching constraint are not reported for
/// that certificate (only recoverable checks an exception could cover; never `Signature`, `Revocation`,
/// `RevocationResponseRequired` or `PathBuildingLimit`). Constraints for another policy or host do not apply.
/// A certificate that has a distrust setting is denied whatever its other settings say.
///
/// What a setting binds to (Docs/TrustModel.md): `deny` and ``distrust`` bind to the certificate's identities
/// (`CertificateIdentity`: issuer name and serial number, subject name and public key), so they reach a copy
/// re-encoded without any key and a certificate re-issued for the same key; `trustRoot`, `trustAsRoot`,
/// ``alwaysTrust`` and allowed errors bind to the exact DER.
public struct TrustSettings: Sendable, Hashable {
    /// Certificates the user always trusts: each acts as an anchor, and success through it reads `proceed`.
    /// The same as one unrestricted `trustRoot` constraint (`trustAsRoot` when the certificate is not self-signed).
    public var alwaysTrust: [Certificate]
    /// Certificates the user distrusts: any path through one of them, or through a certificate with the same
    /// issuer and serial or the same subject and key, is `deny`. The same as one unrestricted `deny` constraint.
    public var distrust: [Certificate]
    /// Certificates with their usage constraints, in the order given (a trust store's content).
    public var certificateSettings: [CertificateTrustSettings]

    /// Creates settings.
    public init(
        alwaysTrust: [Certificate] = [], distrust: [Certificate] = [],
        certificateSettings: [CertificateTrustSettings] = []
    ) {
        self.alwaysTrust = alwaysTrust
        self.distrust = distrust
        self.certificateSettings = certificateSettings
    }

    /// No settings.
    public static let none = TrustSettings()

    /// True when no setting is present.
    public var isEmpty: Bool {
        alwaysTrust.isEmpty && distrust.isEmpty && certificateSettings.allSatisfy(\.constraints.isEmpty)
    }

    /// Every certificate that has a setting, each once, in the order: distrust, always-trust, then
    /// ``certificateSettings``.
    public var certificates: [Certificate] {
        var seen = Set<Certificate>()
        return (distrust + alwaysTrust + certificateSettings.map(\.certificate)).filter { seen.insert($0).inserted }
    }

    /// Combines two sets of settings: the constraints of `other` follow those of `self`.
    public func merging(_ other: TrustSettings) -> TrustSettings {
        TrustSettings(
            alwaysTrust: alwaysTrust + other.alwaysTrust, distrust: distrust + other.distrust,
            certificateSettings: certificateSettings + other.certificateSettings)
    }
}
