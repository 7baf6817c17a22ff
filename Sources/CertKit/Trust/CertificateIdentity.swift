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
/// Each identity is one ``EncodingKey``: a kind byte, then DER values that delimit themselves (a name and an SPKI
/// are TLVs) or come last (the serial's content octets), so two different pairs never give the same bytes.
package enum CertificateIdentity {
    /// The kind byte that starts each key.
    enum Kind: UInt8 {
        case issuerAndSerial = 1
        case subjectAndKey = 2
    }

    /// The two identities of `certificate`. (Its tbsCertificate bytes need no key of their own: equal ones hold
    /// the same issuer, serial, subject and key.)
    static func keys(of certificate: Certificate) -> [EncodingKey] {
        [
            EncodingKey([Kind.issuerAndSerial.rawValue] + certificate.issuer.derEncoded + certificate.serialNumber),
            EncodingKey([Kind.subjectAndKey.rawValue] + certificate.subject.derEncoded + certificate.publicKey.derEncoded),
        ]
    }

    /// True when `a` and `b` share an identity: a negative setting of one applies to the other.
    package static func related(_ a: Certificate, _ b: Certificate) -> Bool {
        a == b || !Set(keys(of: a)).isDisjoint(with: keys(of: b))
    }
}
