import Foundation

/// The system's CA certificates, read once: the anchors an evaluation uses when ``TrustEvaluation/anchorsOnly`` is
/// false (as a `SecTrust` uses the system roots).
///
/// As OpenSSL reads them: the file named by `SSL_CERT_FILE` and the directories named by `SSL_CERT_DIR`
/// (colon-separated; every regular file in them that decodes as certificates, as `c_rehash` directories hold
/// them) when either variable is set, else the first that exists of the common distributions' bundles
/// (`candidatePaths`). A file or directory that a variable names and that cannot be read is a ``problem``, never
/// a silently smaller store.
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

    /// The most files read from the directories of `SSL_CERT_DIR`, and the largest file read, in bytes.
    package static let directoryFileLimit = 10_000
    package static let fileByteLimit = 16 << 20

    /// The bundle in use (or the first directory of `SSL_CERT_DIR` when no file is), or nil when none was found.
    package static var bundlePath: String? { loaded.path }

    /// Every file and directory read, in order (for saying which system roots an evaluation used).
    package static var sources: [String] { loaded.sources }

    /// Why the system store is unavailable, in one line (nil when it loaded at least one certificate).
    public static var problem: String? { loaded.problem }

    /// The certificates of the system bundle; empty when it is missing or unreadable (see ``problem``).
    public static var certificates: [Certificate] { loaded.certificates }

    /// The process's store, read once from its environment.
    private static let loaded = load(environment: ProcessInfo.processInfo.environment)

    /// A system store as read from one environment.
    package struct Contents: Sendable {
        /// The bundle read (else the first directory), or nil when none was found.
        package let path: String?
        /// Every file and directory read.
        package let sources: [String]
        /// Its certificates, each once; empty when it is missing or unreadable.
        package let certificates: [Certificate]
        /// Why the store is unavailable, in one line; nil when it holds at least one certificate.
        package let problem: String?
    }

    /// Reads the store as a process with `environment` would (`SSL_CERT_FILE` and `SSL_CERT_DIR`, else
    /// `candidatePaths`): what the command line's system roots are in a child process given that environment.
    /// At most `directoryFileLimit` files are read from the directories (a parameter so that tests can count them
    /// with a small one).
    package static func load(environment: [String: String], directoryFileLimit: Int = directoryFileLimit) -> Contents {
        var files: [String] = []
        if let override = environment["SSL_CERT_FILE"], !override.isEmpty { files = [override] }
        let directories = (environment["SSL_CERT_DIR"] ?? "").split(separator: ":").map(String.init)
        if files.isEmpty, directories.isEmpty {
            guard let path = candidatePaths.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
                return Contents(
                    path: nil, sources: [], certificates: [],
                    problem: "no system CA bundle found (looked in \(candidatePaths.joined(separator: ", "))); "
                        + "set SSL_CERT_FILE or SSL_CERT_DIR")
            }
            files = [path]
        }
        let sources = files + directories
        var certificates: [Certificate] = []
        var seen: Set<[UInt8]> = []
        func add(_ found: [Certificate]) {
            for certificate in found where seen.insert(certificate.derEncoded).inserted { certificates.append(certificate) }
        }
        for file in files {
            guard let found = read(file), !found.isEmpty else {
                return Contents(
                    path: file, sources: sources, certificates: [],
                    problem: "the system CA bundle \(file) holds no readable certificate")
            }
            add(found)
        }
        var budget = directoryFileLimit
        for directory in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                return Contents(
                    path: files.first ?? directory, sources: sources, certificates: [],
                    problem: "the system CA directory \(directory) (SSL_CERT_DIR) cannot be read")
            }
            for name in names.sorted() where !name.hasPrefix(".") && budget > 0 {
                budget -= 1
                // CRLs (hash.r0) and anything else that is not certificates is skipped, as OpenSSL skips it.
                add(read(directory + "/" + name) ?? [])
            }
        }
        let path = files.first ?? directories.first
        guard !certificates.isEmpty else {
            return Contents(
                path: path, sources: sources, certificates: [],
                problem: "the system CA \(sources.count == 1 ? "source" : "sources") \(sources.joined(separator: ", ")) "
                    + "\(sources.count == 1 ? "holds" : "hold") no readable certificate")
        }
        return Contents(path: path, sources: sources, certificates: certificates, problem: nil)
    }

    /// The certificates of the regular file at `path` (symbolic links followed), nil when it is not one, is over
    /// ``fileByteLimit`` or does not decode.
    private static func read(_ path: String) -> [Certificate]? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: (path as NSString).resolvingSymlinksInPath),
              attributes[.type] as? FileAttributeType == .typeRegular,
              (attributes[.size] as? Int ?? Int.max) <= fileByteLimit,
              let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return try? CertificateBundle.decode([UInt8](data)).certificates
    }
}
