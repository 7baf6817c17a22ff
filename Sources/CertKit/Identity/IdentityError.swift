/// Why an identity could not be imported: one line that says what is wrong and, where there is something to do,
/// what to do (``description``). Errors compare by ``code``.
public struct IdentityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. Codes may be added in later versions: compare with `==` and give a `switch` a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: String, Sendable {
            case wrongPassword, legacyEncryption, keyMismatch, noKey, noCertificate, malformed, limitExceeded, library
        }

        fileprivate let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The password does not open the file (the PKCS#12 MAC or the key's encryption does not verify).
        public static let wrongPassword = Code(.wrongPassword)
        /// The file is encrypted with an algorithm this library refuses by default; ``IdentityError/detail`` names
        /// the algorithm when the library said it (RC2-40-CBC, ...).
        public static let legacyEncryption = Code(.legacyEncryption)
        /// The private key is not the key of the certificate.
        public static let keyMismatch = Code(.keyMismatch)
        /// The file holds certificates but no private key.
        public static let noKey = Code(.noKey)
        /// The file holds a private key but no certificate (or no certificate was given).
        public static let noCertificate = Code(.noCertificate)
        /// The bytes are not a PKCS#12 file or a private key this library reads; ``IdentityError/detail`` is the
        /// reason.
        public static let malformed = Code(.malformed)
        /// The file asks for more work than ``Limits`` allows (a PKCS#12 iteration count); ``IdentityError/detail``
        /// says which bound.
        public static let limitExceeded = Code(.limitExceeded)
        /// The library failed for another reason, given in ``IdentityError/detail``.
        public static let library = Code(.library)

        /// The code's stable name (`wrongPassword`, ...).
        public var description: String { backing.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// The library's or the parser's words, where the code has them (the algorithm of ``Code/legacyEncryption``,
    /// the reason of ``Code/malformed``, ``Code/limitExceeded`` and ``Code/library``).
    public var detail: String?

    /// Creates an error.
    package init(_ code: Code, _ detail: String? = nil) {
        self.code = code
        self.detail = detail
    }

    package static let wrongPassword = IdentityError(Code.wrongPassword)
    package static let keyMismatch = IdentityError(Code.keyMismatch)
    package static let noKey = IdentityError(Code.noKey)
    package static let noCertificate = IdentityError(Code.noCertificate)
    package static func legacyEncryption(algorithm: String?) -> IdentityError { IdentityError(.legacyEncryption, algorithm) }
    package static func malformed(_ reason: String) -> IdentityError { IdentityError(.malformed, reason) }
    package static func limitExceeded(_ reason: String) -> IdentityError { IdentityError(.limitExceeded, reason) }
    package static func library(_ reason: String) -> IdentityError { IdentityError(.library, reason) }

    /// One line.
    public var description: String {
        switch code.backing {
        case .wrongPassword:
            "wrong password (the PKCS#12 MAC or the key's encryption does not verify)"
        case .legacyEncryption:
            "encrypted with legacy \(detail ?? "RC2/RC4") encryption, which OpenSSL 3 refuses without its legacy "
                + "provider: re-encrypt it (openssl pkcs12 -legacy -in FILE -nodes | openssl pkcs12 -export -out NEW.p12) "
                + "or import it with GnuTLS"
        case .keyMismatch:
            "the private key does not belong to the certificate"
        case .noKey:
            "no private key in the file (a client identity needs the certificate's key)"
        case .noCertificate:
            "no certificate for the private key in the file"
        case .malformed:
            "not a readable PKCS#12 file or private key: \(detail ?? "")"
        case .limitExceeded:
            "refused before any key derivation: \(detail ?? "")"
        case .library:
            detail ?? "the library failed"
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
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
