/// What a negative trust decision (`deny`, `--distrust`) binds to: what nobody can change without the issuer's
/// key, and what names the same certificate or the same key (Docs/TrustModel.md, "What a setting binds to").
///
/// A certificate's SHA-256 is not enough: anyone can re-encode a signature without any key (ECDSA's `s` becomes
/// `n − s`; a library may also read a BER length or a padded INTEGER), and the copy verifies, has another hash
/// and carried none of the original's settings. A negative setting binds instead to what is inside the
/// **tbsCertificate**, the signed part that a re-encoded signature leaves as it is; two identities, each of which
/// a copy with the same tbsCertificate shares:
/// - its **issuer name and serial number**: RFC 5280 §4.1.2.2 makes them unique per CA, and they are what a CRL
///   or an OCSP response names, so a CA that signs the same certificate again (another algorithm, a
///   precertificate and its final certificate) makes the same certificate;
/// - its **subject name and SubjectPublicKeyInfo**: the distrusted key under that name, so a certificate re-issued
///   or cross-signed for that key is distrusted too.
///
/// Names are compared as RFC 5280 §7.1 compares them, as the chain builder matches an issuer (``FoldedNameKey``:
/// case and spaces folded in PrintableString and UTF8String), so a name spelled another way does not undo a
/// deny; the serial and the SubjectPublicKeyInfo byte for byte.
enum CertificateIdentity: Hashable, Sendable {
    /// The issuer name and serial number's content octets.
    case issuerAndSerial(FoldedNameKey, EncodingKey)
    /// The subject name and the whole DER SubjectPublicKeyInfo.
    case subjectAndKey(FoldedNameKey, EncodingKey)

    /// The two identities of `certificate`. (Its tbsCertificate bytes need no identity of their own: equal ones
    /// hold the same issuer, serial, subject and key.)
    static func keys(of certificate: Certificate) -> [CertificateIdentity] {
        [
            .issuerAndSerial(FoldedNameKey(certificate.issuer), EncodingKey(certificate.serialNumber)),
            .subjectAndKey(FoldedNameKey(certificate.subject), EncodingKey(certificate.publicKey.derEncoded)),
        ]
    }

    /// True when `a` and `b` share an identity: a negative setting of one applies to the other.
    static func related(_ a: Certificate, _ b: Certificate) -> Bool {
        a == b || !Set(keys(of: a)).isDisjoint(with: keys(of: b))
    }
}
