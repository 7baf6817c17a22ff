public import CertKit

/// Imports client identities with GnuTLS: PKCS#12 files (`gnutls_pkcs12_verify_mac`,
/// `gnutls_pkcs12_simple_parse`) and key files (`gnutls_x509_privkey_import2`). The private key stays in a
/// `gnutls_x509_privkey_t` owned by the returned ``Identity``.
///
/// GnuTLS still decrypts the legacy PKCS#12 encryption (RC2-40, 3DES) that OpenSSL 3 refuses by default.
public struct GnuTLSIdentityImporter: IdentityImporter {
    /// `gnutls`.
    public let name = "gnutls"

    /// The bounds on the work a PKCS#12 file may ask for (``Limits/maxPKCS12Iterations``,
    /// ``Limits/maxPKCS12TotalIterations``), checked before GnuTLS reads the file.
    public let limits: Limits

    /// Creates an importer.
    public init(limits: Limits = .default) { self.limits = limits }

    /// The contents of `pkcs12`, its iteration counts checked first (``PKCS12KeyDerivationBudget``).
    private func contents(_ pkcs12: [UInt8], password: SecretBytes) throws(IdentityError) -> GnuTLSPKCS12.Contents {
        var budget = PKCS12KeyDerivationBudget(limits: limits)
        try budget.check(pfx: pkcs12)
        return try GnuTLSPKCS12(der: pkcs12).parse(password: password, budget: &budget)
    }

    public func importPKCS12(_ pkcs12: [UInt8], password: SecretBytes) throws(IdentityError) -> Identity {
        let contents = try contents(pkcs12, password: password)
        guard let key = contents.key, let leaf = contents.certificate else {
            // GnuTLS pairs a key with its certificate by key id; when it found no pair, the bags say why.
            switch (contents.hasKey || contents.key != nil, contents.hasCertificate || !contents.others.isEmpty) {
            case (true, true): throw .keyMismatch
            case (true, false): throw .noCertificate
            case (false, _): throw .noKey
            }
        }
        return try Self.identity(leaf: leaf, others: contents.others, key: key)
    }

    public func pkcs12Certificates(_ pkcs12: [UInt8], password: SecretBytes) throws(IdentityError) -> [Certificate] {
        let contents = try contents(pkcs12, password: password)
        return try IdentityCertificates.decode((contents.certificate.map { [$0] } ?? []) + contents.others)
    }

    public func importIdentity(certificates: [Certificate], privateKey: SecretBytes, password: SecretBytes?)
        throws(IdentityError) -> Identity
    {
        guard let leaf = certificates.first else { throw .noCertificate }
        var budget = PKCS12KeyDerivationBudget(limits: limits)
        try budget.check(privateKeyFile: privateKey)
        let key = try GnuTLSPrivateKey(encoded: privateKey, password: password)
        return try Self.identity(leaf: leaf.derEncoded, others: certificates.dropFirst().map(\.derEncoded), key: key)
    }

    private static func identity(leaf: [UInt8], others: [[UInt8]], key: GnuTLSPrivateKey) throws(IdentityError)
        -> Identity
    {
        let handle: GnuTLSCertificate
        do { handle = try GnuTLSCertificate(der: leaf) } catch { throw .malformed(error.message) }
        guard key.matches(handle) else { throw .keyMismatch }
        return try IdentityCertificates.identity(leaf: leaf, others: others, key: key)
    }
}
