public import CertKit

/// Imports client identities with OpenSSL: PKCS#12 files (`PKCS12_parse`) and key files
/// (`PEM_read_bio_PrivateKey`, `d2i_AutoPrivateKey`). The private key stays in an OpenSSL `EVP_PKEY` owned by the
/// returned ``Identity``.
///
/// OpenSSL 3 refuses PKCS#12 files encrypted with RC2 or RC4 (`openssl pkcs12 -export -legacy`, and files from
/// older tools) unless its legacy provider is loaded; certkit does not load it and reports
/// ``IdentityError/legacyEncryption(algorithm:)`` instead, saying what to do.
///
/// ```swift
/// let identity = try OpenSSLIdentityImporter().importPKCS12(Array(p12Data), password: password)
/// let chain = try OpenSSLTLSClient().fetchChain(
///     host: "mtls.example", port: 443, serverName: "mtls.example", timeout: .seconds(10), identity: identity)
/// ```
public struct OpenSSLIdentityImporter: IdentityImporter {
    /// `openssl`.
    public let name = "openssl"

    /// The bounds on the work a PKCS#12 file may ask for (``Limits/maxPKCS12Iterations``,
    /// ``Limits/maxPKCS12TotalIterations``), checked before OpenSSL reads the file.
    public let limits: Limits

    /// Creates an importer.
    public init(limits: Limits = .default) { self.limits = limits }

    /// The contents of `pkcs12`, its iteration counts checked first (``PKCS12KeyDerivationBudget``).
    private func contents(_ pkcs12: [UInt8], password: SecretBytes) throws(IdentityError) -> OpenSSLPKCS12.Contents {
        var budget = PKCS12KeyDerivationBudget(limits: limits)
        try budget.check(pfx: pkcs12)
        return try OpenSSLPKCS12(der: pkcs12).parse(password: password, budget: &budget)
    }

    public func importPKCS12(_ pkcs12: [UInt8], password: SecretBytes) throws(IdentityError) -> Identity {
        let contents = try contents(pkcs12, password: password)
        guard let key = contents.key else {
            throw contents.certificate == nil && contents.others.isEmpty ? .noCertificate : .noKey
        }
        // OpenSSL 3 picks as the leaf the certificate the key opens (X509_check_private_key); none means the key
        // belongs to no certificate of the file.
        guard let leaf = contents.certificate else {
            throw contents.others.isEmpty ? .noCertificate : .keyMismatch
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
        let key = try OpenSSLPrivateKey(encoded: privateKey, password: password)
        return try Self.identity(leaf: leaf.derEncoded, others: certificates.dropFirst().map(\.derEncoded), key: key)
    }

    /// Checks that `key` opens `leaf` and decodes the certificates.
    private static func identity(leaf: [UInt8], others: [[UInt8]], key: OpenSSLPrivateKey) throws(IdentityError)
        -> Identity
    {
        let handle: OpenSSLCertificate
        do { handle = try OpenSSLCertificate(der: leaf) } catch { throw .malformed(error.message) }
        guard key.matches(handle) else { throw .keyMismatch }
        return try IdentityCertificates.identity(leaf: leaf, others: others, key: key)
    }
}
