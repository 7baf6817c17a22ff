import Foundation

/// The system's CA bundle, read once: the anchors an evaluation uses when ``TrustEvaluation/anchorsOnly`` is false
/// (as a `SecTrust` uses the system roots).
///
/// The bundle is the file named by `SSL_CERT_FILE` when that variable is set, else the first that exists of the
/// common distributions' bundles (``candidatePaths``).
public enum SystemTrustStore {
    /// Where distributions keep their PEM bundle: Debian/Ubuntu/Gentoo/Arch, Fedora/RHEL/CentOS (two forms),
    /// openSUSE, Alpine.
    package static let candidatePaths = [
        "/etc/ssl/certs/ca-certificates.crt",
        "/etc/pki/tls/certs/ca-bundle.crt",
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
        "/etc/ssl/ca-bundle.pem",
        "/etc/ssl/cert.pem",
    ]

    /// The bundle in use, or nil when none was found.
    package static var bundlePath: String? { loaded.path }

    /// Why the system store is unavailable, in one line (nil when it loaded at least one certificate).
    public static var problem: String? { loaded.problem }

    /// The certificates of the system bundle; empty when it is missing or unreadable (see ``problem``).
    public static var certificates: [Certificate] { loaded.certificates }

    /// The process's store, read once from its environment.
    private static let loaded = load(environment: ProcessInfo.processInfo.environment)

    /// A system store as read from one environment.
    package struct Contents: Sendable {
        /// The bundle read, or nil when none was found.
        package let path: String?
        /// Its certificates; empty when it is missing or unreadable.
        package let certificates: [Certificate]
        /// Why the store is unavailable, in one line; nil when it holds at least one certificate.
        package let problem: String?
    }

    /// Reads the store as a process with `environment` would (`SSL_CERT_FILE`, else ``candidatePaths``): what
    /// the command line's `--system-roots` gets in a child process given that environment.
    package static func load(environment: [String: String]) -> Contents {
        let path: String?
        if let override = environment["SSL_CERT_FILE"], !override.isEmpty {
            path = override
        } else {
            path = candidatePaths.first { FileManager.default.isReadableFile(atPath: $0) }
        }
        guard let path else {
            return Contents(
                path: nil, certificates: [],
                problem: "no system CA bundle found (looked in \(candidatePaths.joined(separator: ", ")); set SSL_CERT_FILE")
        }
        let certificates = FileManager.default.contents(atPath: path)
            .flatMap { try? CertificateBundle.decode([UInt8]($0)).certificates } ?? []
        return Contents(
            path: path, certificates: certificates,
            problem: certificates.isEmpty ? "the system CA bundle \(path) holds no readable certificate" : nil)
    }
}
