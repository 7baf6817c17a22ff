/// A client identity: a certificate, the intermediates that lead to its issuer, and the matching private key —
/// what `SecPKCS12Import` gives an app as a `SecIdentity` plus its chain.
///
/// Import one with a backend's identity importer (`OpenSSLIdentityImporter`, `GnuTLSIdentityImporter`) from a
/// PKCS#12 file or from a certificate and a key file, then present it with a TLS client
/// (`fetchDER(host:port:serverName:timeout:identity:)`). The key never leaves the backend that imported it
/// through the public API: ``privateKey`` only says what kind of key it is, and printing an identity shows the
/// certificates' subjects and that a key is present.
public struct Identity: Sendable, CustomStringConvertible {
    /// The certificate whose key this identity holds (the leaf).
    public let certificate: Certificate
    /// The other certificates that came with it (intermediates, perhaps a root), in the file's order.
    public let intermediates: [Certificate]
    /// The private key, opaque: it stays inside the backend.
    public let privateKey: PrivateKey

    /// The leaf followed by ``intermediates``: what a TLS client sends.
    public var certificates: [Certificate] { [certificate] + intermediates }

    /// Creates an identity; backends call this after checking that `privateKey` belongs to `certificate`.
    package init(certificate: Certificate, intermediates: [Certificate], privateKey: PrivateKey) {
        self.certificate = certificate
        self.intermediates = intermediates
        self.privateKey = privateKey
    }

    /// The leaf's subject, the number of other certificates and the key's kind; never key material.
    public var description: String {
        "identity \(certificate.subject) (+\(intermediates.count) certificate\(intermediates.count == 1 ? "" : "s"), \(privateKey))"
    }
}
