import CertKit
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitSockets

/// The one list of certkit's backends. The command line (`--backend`, `--tls`), the tests that run on every
/// backend, the fuzz targets and the benchmarks all take them from here: adding a backend is one entry here.
package struct BackendRegistry: Sendable {
    /// One backend: its name, how to make its trust backend and how to make its TLS client.
    package struct Entry: Sendable {
        /// The name used with `--backend` and `--tls`, and in reports (``TrustBackend/name``).
        package let name: String
        private let makeBackend: @Sendable (_ certificateCacheCapacity: Int) -> any TrustBackend
        private let makeTLSClient: @Sendable () -> any TLSChainFetcher
        private let makeIdentityImporter: @Sendable () -> any IdentityImporter
        private let readLibraryVersion: @Sendable () -> String

        /// Creates an entry; `libraryVersion` reads the version of the library the backend runs with.
        package init(
            name: String, backend: @escaping @Sendable (_ certificateCacheCapacity: Int) -> any TrustBackend,
            tlsClient: @escaping @Sendable () -> any TLSChainFetcher,
            identityImporter: @escaping @Sendable () -> any IdentityImporter,
            libraryVersion: @escaping @Sendable () -> String = { "version unknown" }
        ) {
            self.name = name
            self.makeBackend = backend
            self.makeTLSClient = tlsClient
            self.makeIdentityImporter = identityImporter
            self.readLibraryVersion = libraryVersion
        }

        /// The name and version of the library this backend runs with, as the loaded library reports it.
        package var libraryVersion: String { readLibraryVersion() }

        /// A new trust backend that keeps at most `certificateCacheCapacity` parsed certificate handles (0: none).
        package func backend(certificateCacheCapacity: Int = 256) -> any TrustBackend {
            makeBackend(certificateCacheCapacity)
        }

        /// A new TLS client that captures a server's chain with this backend's library.
        package func tlsClient() -> any TLSChainFetcher { makeTLSClient() }

        /// A new importer of client identities (PKCS#12, key files) with this backend's library.
        package func identityImporter() -> any IdentityImporter { makeIdentityImporter() }
    }

    /// The backends, the default first.
    package let entries: [Entry]

    /// Creates a registry; the first entry is the default.
    package init(entries: [Entry]) {
        precondition(!entries.isEmpty, "a registry needs at least one backend")
        self.entries = entries
    }

    /// OpenSSL (the default) and GnuTLS.
    package static let standard = BackendRegistry(entries: [
        Entry(name: "openssl", backend: { OpenSSLBackend(certificateCacheCapacity: $0) }, tlsClient: { OpenSSLTLSClient() },
              identityImporter: { OpenSSLIdentityImporter() }, libraryVersion: { OpenSSLLibraryVersion.runtime }),
        Entry(name: "gnutls", backend: { GnuTLSBackend(certificateCacheCapacity: $0) }, tlsClient: { GnuTLSTLSClient() },
              identityImporter: { GnuTLSIdentityImporter() }, libraryVersion: { GnuTLSLibraryVersion.runtime }),
    ])

    /// What `--backend` takes to run every backend and compare their reports.
    package static let allBackendsChoice = "both"

    /// The backend names, default first.
    package var names: [String] { entries.map(\.name) }

    /// The default backend's name.
    package var defaultName: String { entries[0].name }

    /// The entry called `name`, or nil when there is none.
    package func entry(named name: String) -> Entry? { entries.first { $0.name == name } }

    /// Makes the backend called `name`, or nil when there is none.
    package func backend(named name: String) -> (any TrustBackend)? { entry(named: name)?.backend() }

    /// A new trust backend of every entry, default first.
    package func allBackends() -> [any TrustBackend] { entries.map { $0.backend() } }
}
