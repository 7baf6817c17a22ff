import Foundation

/// The system's CA bundle, read once: what `anchorsOnly = false` adds.
public enum SystemTrustStore {
    /// The bundle path (Debian and Ubuntu).
    public static let bundlePath = "/etc/ssl/certs/ca-certificates.crt"

    /// The certificates of the system bundle; empty when it is missing or unreadable.
    public static let certificates: [Certificate] = {
        guard let data = FileManager.default.contents(atPath: bundlePath),
              let bundle = try? CertificateBundle.decode([UInt8](data)) else { return [] }
        return bundle.certificates
    }()
}
