/// A private key held by a backend (an OpenSSL `EVP_PKEY`, a GnuTLS `gnutls_x509_privkey_t`), opaque to
/// everything above it.
///
/// It says what kind of key it is and nothing more: its description, its debug description and its mirror
/// never contain key material, so printing or logging an ``Identity`` is safe.
public final class PrivateKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key's algorithm and size (those of the certificate's public key, which the backend checked it matches).
    public let algorithm: PublicKeyInfo.Algorithm
    /// The backend object that owns the key (package access: the TLS clients and `certkit convert
    /// --include-key` need it; nothing public does).
    package let storage: any PrivateKeyStorage

    /// Wraps a backend's key object.
    package init(algorithm: PublicKeyInfo.Algorithm, storage: any PrivateKeyStorage) {
        self.algorithm = algorithm
        self.storage = storage
    }

    /// `private key RSA 2048 (not shown)`.
    public var description: String { "private key \(algorithm) (not shown)" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with the algorithm and size only.
    public var customMirror: Mirror {
        Mirror(self, children: ["algorithm": algorithm.description], displayStyle: .class)
    }
}

/// The backend object that owns a private key's C handle and frees it exactly once (package access).
package protocol PrivateKeyStorage: AnyObject, Sendable {
    /// The backend that made it (`openssl`, `gnutls`).
    var backendName: String { get }
    /// The key as an unencrypted PKCS#8 `PrivateKeyInfo` (DER), for a TLS client of the other library and for
    /// `certkit convert --include-key`, zeroed when released. The caller must not print or log it.
    func pkcs8DER() throws(IdentityError) -> SecretBytes
}
