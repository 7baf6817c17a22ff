import CertKit
import CertKitBackends
import CertKitCLI

/// Digests for expectations, from a backend's library (certkit has no digest code of its own).
enum Digests {
    static let backend: any TrustBackend = BackendRegistry.standard.backend(named: "openssl")!

    static func sha256(_ bytes: [UInt8]) throws -> [UInt8] { try backend.digest(.sha256, of: bytes) }
}
