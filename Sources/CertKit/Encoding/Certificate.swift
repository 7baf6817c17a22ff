import Foundation

/// An X.509 certificate, parsed in pure Swift from its DER encoding.
///
/// Two certificates are equal, and hash alike, exactly when their DER encodings are byte-identical.
/// Parsing is strict (DER, RFC 5280) about the envelope; problems inside known extensions are
/// recorded on ``extensions`` (``CertificateExtensions/malformed``, ``CertificateExtensions/duplicates``)
/// so that evaluation can report them instead of failing to decode.
public struct Certificate: Sendable, Hashable, CustomStringConvertible {
    /// The complete DER encoding of the certificate.
    public let derEncoded: [UInt8]
    /// The DER encoding of the `tbsCertificate` (the signed part).
    public let tbsCertificateBytes: [UInt8]
    /// The X.509 version: 1, 2 or 3.
    public let version: Int
    /// The serial number's content octets (two's complement, big-endian, as encoded).
    public let serialNumber: [UInt8]
    /// The outer signature algorithm.
    public let signatureAlgorithm: SignatureAlgorithm
    /// The signature value (the BIT STRING's bytes, without the unused-bits octet).
    public let signatureBytes: [UInt8]
    /// The issuer name.
    public let issuer: DistinguishedName
    /// The subject name.
    public let subject: DistinguishedName
    /// The start of the validity period.
    public let notBefore: Date
    /// The end of the validity period (inclusive, per RFC 5280).
    public let notAfter: Date
    /// The subject public key info.
    public let publicKey: PublicKeyInfo
    /// The extensions, raw and decoded.
    public let extensions: CertificateExtensions

    /// Parses a DER-encoded certificate. The input must be exactly one certificate: trailing bytes are an error.
    public init(derEncoded: [UInt8]) throws(CertificateDecodingError) {
        self = try X509Parser.parseCertificate(derEncoded)
    }

    /// Memberwise initializer used by the parser.
    init(
        derEncoded: [UInt8], tbsCertificateBytes: [UInt8], version: Int, serialNumber: [UInt8],
        signatureAlgorithm: SignatureAlgorithm, signatureBytes: [UInt8], issuer: DistinguishedName,
        subject: DistinguishedName, notBefore: Date, notAfter: Date, publicKey: PublicKeyInfo,
        extensions: CertificateExtensions
    ) {
        self.derEncoded = derEncoded
        self.tbsCertificateBytes = tbsCertificateBytes
        self.version = version
        self.serialNumber = serialNumber
        self.signatureAlgorithm = signatureAlgorithm
        self.signatureBytes = signatureBytes
        self.issuer = issuer
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.publicKey = publicKey
        self.extensions = extensions
    }

    public static func == (lhs: Certificate, rhs: Certificate) -> Bool { lhs.derEncoded == rhs.derEncoded }
    public func hash(into hasher: inout Hasher) { hasher.combine(derEncoded) }

    /// The subject in RFC 4514 form.
    public var description: String { subject.description }

    /// True when subject and issuer names match (RFC 5280 §7.1). Says nothing about the signature.
    public var isSelfIssued: Bool { subject.matches(issuer) }

    /// True when the certificate looks self-signed: self-issued, and its authority key identifier, when both
    /// identifiers are present, is its own subject key identifier. (The signature itself is the backend's job.)
    public var isSelfSigned: Bool {
        guard isSelfIssued else { return false }
        guard let aki = extensions.authorityKeyIdentifier, let ski = extensions.subjectKeyIdentifier else { return true }
        return aki == ski
    }

    /// True when `date` lies within `notBefore ... notAfter`.
    public func isValid(at date: Date) -> Bool { notBefore <= date && date <= notAfter }

    /// SHA-256 of the DER encoding (the certificate's fingerprint).
    public var sha256Fingerprint: [UInt8] { SHA256.hash(derEncoded) }
    /// SHA-1 of the DER encoding.
    public var sha1Fingerprint: [UInt8] { SHA1.hash(derEncoded) }
    /// SHA-256 of the DER SubjectPublicKeyInfo: the value an SPKI pin compares.
    public var spkiSHA256: [UInt8] { SHA256.hash(publicKey.derEncoded) }
}
