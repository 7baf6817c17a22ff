/// A SHA-256 pin of a SubjectPublicKeyInfo, written `sha256/BASE64` as in HPKP and curl's `--pinnedpubkey`.
public struct SPKIPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32-byte SHA-256 of the DER SubjectPublicKeyInfo.
    public let digest: [UInt8]

    /// Creates a pin from a digest.
    public init(digest: [UInt8]) { self.digest = digest }

    /// Parses `sha256/BASE64`; nil when malformed.
    public init?(_ text: String) {
        guard text.hasPrefix("sha256/"), let bytes = Base64.decode(String(text.dropFirst(7))),
              bytes.count == 32 else { return nil }
        self.digest = bytes
    }

    /// The pin of `certificate`'s key, its SHA-256 computed by `backend`'s library.
    public init(certificate: Certificate, backend: Backend) throws(BackendError) {
        try self.init(certificate: certificate, backend: backend.implementation)
    }

    /// The pin of `certificate`'s key, its SHA-256 computed by a backend implementation.
    package init(certificate: Certificate, backend: any TrustBackend) throws(BackendError) {
        self.digest = try backend.digest(.sha256, of: certificate.publicKey.derEncoded)
    }

    public var description: String { "sha256/" + Base64.encode(digest) }
}
