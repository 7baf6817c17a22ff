// Placeholder; replaced by pure-Swift SHA-256 and SHA-1.
/// SHA-256 (FIPS 180-4), pure Swift.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 32) }
}
/// SHA-1 (FIPS 180-4), pure Swift; for fingerprints only.
public enum SHA1 {
    /// The 20-byte digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 20) }
}
