/// Where the anchor that ends a path comes from. trustd applies its TLS validity-period maximums by it
/// (`ValidityPeriodCheck`), and Apple's serverAuth requirement to the anchors an app or a user trusts.
package enum AnchorOrigin: Sendable, Hashable {
    /// An anchor the application supplied (`TrustEvaluation/anchors`, `SecTrustSetAnchorCertificates`,
    /// `--anchors`).
    case appSupplied
    /// A system root (`SystemTrustStore`: `--system-roots`, and the default when no anchor option is given).
    case system
    /// A certificate the trust settings make an anchor (a trustRoot or trustAsRoot setting: `--always-trust`,
    /// `certkit trust add`), as trustd's user trust settings do.
    case userTrustSettings
}
