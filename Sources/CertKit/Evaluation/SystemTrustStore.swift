import Foundation

/// The system's CA bundle, read once: the anchors an evaluation uses when ``TrustEvaluation/anchorsOnly`` is false
/// (as a `SecTrust` uses the system roots).
///
/// The bundle is the file named by `SSL_CERT_FILE` when that variable is set, else the first that exists of the
/// common distributions' bundles (``candidatePaths``).
public enum SystemTrustStore {
    /// Where distributions keep their PEM bundle: Debian/Ubuntu/Gentoo/Arch, Fedora/RHEL/CentOS (two forms),
    /// openSUSE, Alpine.
    public static let candidatePaths = [
        "/etc/ssl/certs/ca-certificates.crt",
        "/etc/pki/tls/certs/ca-bundle.crt",
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
        "/etc/ssl/ca-bundle.pem",
        "/etc/ssl/cert.pem",
    ]

    /// The bundle in use, or nil when none was found.
    public static let bundlePath: String? = {
        if let override = ProcessInfo.processInfo.environment["SSL_CERT_FILE"], !override.isEmpty { return override }
        return candidatePaths.first { FileManager.default.isReadableFile(atPath: $0) }
    }()

    /// Why the system store is unavailable, in one line (nil when it loaded at least one certificate).
    public static let problem: String? = {
        guard let bundlePath else {
            return "no system CA bundle found (looked in \(candidatePaths.joined(separator: ", ")); set SSL_CERT_FILE"
        }
        return certificates.isEmpty ? "the system CA bundle \(bundlePath) holds no readable certificate" : nil
    }()

    /// The certificates of the system bundle; empty when it is missing or unreadable (see ``problem``).
    public static let certificates: [Certificate] = {
        guard let bundlePath, let data = FileManager.default.contents(atPath: bundlePath),
              let bundle = try? CertificateBundle.decode([UInt8](data)) else { return [] }
        return bundle.certificates
    }()
}
