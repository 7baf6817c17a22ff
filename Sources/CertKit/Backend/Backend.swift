/// The cryptographic library an evaluator, a trust store or a pin works with: `Backend.openssl` (from
/// `CertKitOpenSSL`) or `Backend.gnutls` (from `CertKitGnuTLS`). Chosen in one place, by importing the module
/// that provides it; both give the same verdicts (the core decides, the library verifies signatures).
public struct Backend: Sendable, CustomStringConvertible {
    /// The library behind this value (the backend interface is internal to the package).
    package let implementation: any TrustBackend

    /// Wraps a backend implementation.
    package init(_ implementation: any TrustBackend) { self.implementation = implementation }

    /// A short stable name: `openssl` or `gnutls`.
    public var name: String { implementation.name }

    public var description: String { name }
}
