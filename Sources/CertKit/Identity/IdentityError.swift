/// Why an identity could not be imported: each case is one line that says what is wrong and, where there is
/// something to do, what to do (``description``).
public enum IdentityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The password does not open the file (the PKCS#12 MAC or the key's encryption does not verify).
    case wrongPassword
    /// The file is encrypted with an algorithm this library refuses by default; the associated value names the
    /// algorithm when the library said it (RC2-40-CBC, ...).
    case legacyEncryption(algorithm: String?)
    /// The private key is not the key of the certificate.
    case keyMismatch
    /// The file holds certificates but no private key.
    case noKey
    /// The file holds a private key but no certificate (or no certificate was given).
    case noCertificate
    /// The bytes are not a PKCS#12 file or a private key this library reads; the associated value is the reason.
    case malformed(String)
    /// The file asks for more work than ``Limits`` allows (a PKCS#12 iteration count); the associated value says
    /// which bound.
    case limitExceeded(String)
    /// The library failed for another reason.
    case library(String)

    /// One line.
    public var description: String {
        switch self {
        case .wrongPassword:
            "wrong password (the PKCS#12 MAC or the key's encryption does not verify)"
        case .legacyEncryption(let algorithm):
            "encrypted with legacy \(algorithm ?? "RC2/RC4") encryption, which OpenSSL 3 refuses without its legacy "
                + "provider: re-encrypt it (openssl pkcs12 -legacy -in FILE -nodes | openssl pkcs12 -export -out NEW.p12) "
                + "or import it with GnuTLS"
        case .keyMismatch:
            "the private key does not belong to the certificate"
        case .noKey:
            "no private key in the file (a client identity needs the certificate's key)"
        case .noCertificate:
            "no certificate for the private key in the file"
        case .malformed(let reason):
            "not a readable PKCS#12 file or private key: \(reason)"
        case .limitExceeded(let reason):
            "refused before any key derivation: \(reason)"
        case .library(let reason):
            reason
        }
    }
}

/// Imports client identities with one backend's library (`OpenSSLIdentityImporter`, `GnuTLSIdentityImporter`).
public protocol IdentityImporter: Sendable {
    /// The backend's name (`openssl`, `gnutls`).
    var name: String { get }

    /// Imports a PKCS#12 (`.p12`, `.pfx`) file: the certificate whose key the file holds, the other certificates
    /// as intermediates, and the key.
    /// - Parameters:
    ///   - pkcs12: the file's bytes (DER).
    ///   - password: the password; empty for a file without one. It is read, never kept or copied into Swift values.
    /// - Throws: ``IdentityError``: wrong password, legacy encryption, no key, no certificate, mismatch, malformed.
    func importPKCS12(_ pkcs12: [UInt8], password: SecretBytes) throws(IdentityError) -> Identity

    /// The certificates of a PKCS#12 file, whether or not it holds a key (key first when it does, then the others
    /// in the file's order), for listing and converting.
    /// - Throws: ``IdentityError``: wrong password, legacy encryption, malformed.
    func pkcs12Certificates(_ pkcs12: [UInt8], password: SecretBytes) throws(IdentityError) -> [Certificate]

    /// Imports a private key (PEM — PKCS#8, encrypted PKCS#8, PKCS#1 or SEC 1 — or DER PKCS#8) for `certificates`
    /// (leaf first).
    /// - Parameters:
    ///   - certificates: the leaf, then its intermediates.
    ///   - privateKey: the key file's bytes (read in place by the library, never copied into Swift values).
    ///   - password: the key's password when it is encrypted, else nil.
    /// - Throws: ``IdentityError``: wrong password, no certificate, mismatch, malformed.
    func importIdentity(certificates: [Certificate], privateKey: SecretBytes, password: SecretBytes?)
        throws(IdentityError) -> Identity
}

extension IdentityImporter {
    /// Imports a PKCS#12 file with a `String` password (see the ``SecretBytes`` requirement). The string is the caller's: Swift
    /// strings cannot be zeroed, so prefer ``SecretBytes`` for passwords that matter.
    public func importPKCS12(_ pkcs12: [UInt8], password: String) throws(IdentityError) -> Identity {
        try importPKCS12(pkcs12, password: SecretBytes(copying: password.utf8))
    }

    /// The certificates of a PKCS#12 file, with a `String` password (not zeroed: the caller's).
    public func pkcs12Certificates(_ pkcs12: [UInt8], password: String) throws(IdentityError) -> [Certificate] {
        try pkcs12Certificates(pkcs12, password: SecretBytes(copying: password.utf8))
    }

    /// Imports a key file for `certificates` with the key and password as the caller's array and string, which
    /// certkit cannot zero (its own copies it does).
    public func importIdentity(certificates: [Certificate], privateKey: [UInt8], password: String?)
        throws(IdentityError) -> Identity
    {
        try importIdentity(
            certificates: certificates, privateKey: SecretBytes(copying: privateKey),
            password: password.map { SecretBytes(copying: $0.utf8) })
    }
}
