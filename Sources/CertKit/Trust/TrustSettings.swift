/// Per-certificate user trust settings, as in a keychain's trust settings.
public struct TrustSettings: Sendable, Hashable {
    /// Certificates the user always trusts: each acts as an anchor, and success through it reads `proceed`.
    public var alwaysTrust: [Certificate]
    /// Certificates the user distrusts: any path through one of them is `deny`.
    public var distrust: [Certificate]

    /// Creates settings.
    public init(alwaysTrust: [Certificate] = [], distrust: [Certificate] = []) {
        self.alwaysTrust = alwaysTrust
        self.distrust = distrust
    }

    /// No settings.
    public static let none = TrustSettings()

    /// True when no setting is present.
    public var isEmpty: Bool { alwaysTrust.isEmpty && distrust.isEmpty }
}
