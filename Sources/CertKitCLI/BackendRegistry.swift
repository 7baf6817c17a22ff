import CertKit
import CertKitGnuTLS
import CertKitOpenSSL

/// The one place that lists the crypto backends the command line offers. Adding a backend is one entry here.
public struct BackendRegistry: Sendable {
    /// One backend: its command-line name and how to make it.
    public struct Entry: Sendable {
        /// The name used with `--backend`.
        public let name: String
        /// Creates the backend.
        public let make: @Sendable () -> any TrustBackend

        /// Creates an entry.
        public init(name: String, make: @escaping @Sendable () -> any TrustBackend) {
            self.name = name
            self.make = make
        }
    }

    /// The backends, the default first.
    public let entries: [Entry]

    /// Creates a registry; the first entry is the default.
    public init(entries: [Entry]) {
        precondition(!entries.isEmpty, "a registry needs at least one backend")
        self.entries = entries
    }

    /// OpenSSL (the default) and GnuTLS.
    public static let standard = BackendRegistry(entries: [
        Entry(name: "openssl") { OpenSSLBackend() },
        Entry(name: "gnutls") { GnuTLSBackend() },
    ])

    /// The backend names, default first.
    public var names: [String] { entries.map(\.name) }

    /// The default backend's name.
    public var defaultName: String { entries[0].name }

    /// Makes the backend called `name`, or nil when there is none.
    public func backend(named name: String) -> (any TrustBackend)? {
        entries.first { $0.name == name }?.make()
    }

    /// Resolves the `--backend` option of `command`: nil means the default.
    func resolve(_ name: String?, command: String) throws(CLIError) -> any TrustBackend {
        let chosen = name ?? defaultName
        guard let backend = backend(named: chosen) else {
            throw .usage("unknown backend '\(chosen)' (choose \(names.joined(separator: ", ")))", command: command)
        }
        return backend
    }
}
