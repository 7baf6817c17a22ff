/// The bytes a log signs for an SCT (RFC 6962 §3.2, the `digitally-signed` struct of
/// SignedCertificateTimestamp): sct_version, signature_type certificate_timestamp (0), the timestamp, the entry
/// type (two bytes) and the entry, then the SCT's extensions.
///
/// - an SCT delivered by TLS or in an OCSP answer is for the certificate itself: `x509_entry` (0), the
///   certificate's DER after a three-byte length;
/// - an embedded SCT is for the precertificate: `precert_entry` (1), the SHA-256 of the issuer's DER
///   SubjectPublicKeyInfo, then the certificate's TBSCertificate without the SCT extension, after a three-byte
///   length (``precertificateTBS(of:)``).
package enum SCTSignedData {
    /// The signed bytes of `sct` over an `x509_entry` for `certificateDER`.
    package static func x509Entry(_ sct: SignedCertificateTimestamp, certificateDER: [UInt8]) -> [UInt8] {
        header(sct) + [0, 0] + TLSEncoding.opaque24(certificateDER) + TLSEncoding.opaque16(sct.extensions)
    }

    /// The signed bytes of `sct` over a `precert_entry`: `issuerKeyHash` (SHA-256 of the issuer's DER SPKI) and
    /// `tbs` (the TBSCertificate without the SCT extension).
    package static func precertEntry(_ sct: SignedCertificateTimestamp, issuerKeyHash: [UInt8], tbs: [UInt8]) -> [UInt8] {
        header(sct) + [0, 1] + issuerKeyHash + TLSEncoding.opaque24(tbs) + TLSEncoding.opaque16(sct.extensions)
    }

    private static func header(_ sct: SignedCertificateTimestamp) -> [UInt8] {
        var out: [UInt8] = [sct.version, 0]
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: sct.timestamp >> UInt64(shift))) }
        return out
    }

    /// What the certificate's SCT extension holds and its TBSCertificate without that extension, in DER. The
    /// extensions field keeps the others in their order; when the SCT extension was the only one, the field is
    /// left out (as OpenSSL encodes an empty extension list). Nil when the certificate carries no SCT extension.
    /// - Throws: ``CertificateDecodingError`` when the TBSCertificate does not re-read (it decoded once already),
    ///   or holds the extension twice.
    package static func precertificateTBS(of certificate: Certificate) throws(CertificateDecodingError) -> (extnValue: [UInt8], tbs: [UInt8])? {
        try DERReader.read(certificate.tbsCertificateBytes) { reader throws(CertificateDecodingError) -> (extnValue: [UInt8], tbs: [UInt8])? in
            var fields = try reader.read(DERTag.sequence, "tbsCertificate").children()
            try reader.expectEnd("tbsCertificate")
            var kept: [UInt8] = []
            var found: [UInt8]?
            while let field = try fields.next() {
                guard field.tag == DERTag.contextConstructed(3) else {
                    kept += field.encoded
                    continue
                }
                var explicit = try field.children()
                var list = try explicit.read(DERTag.sequence, "extensions").children()
                try explicit.expectEnd("extensions")
                var others: [UInt8] = []
                while let element = try list.next() {
                    var parts = try element.children()
                    let oid = try parts.read(DERTag.objectIdentifier, "extnID").objectIdentifier()
                    guard oid == SCTListParser.embeddedOID else {
                        others += element.encoded
                        continue
                    }
                    guard found == nil else { throw CertificateDecodingError(.invalidCertificate, "two SCT list extensions") }
                    _ = try parts.readIfPresent(DERTag.boolean)
                    found = try parts.read(DERTag.octetString, "extnValue").contentBytes
                }
                if !others.isEmpty {
                    kept += DERWriter.tlv(DERTag.contextConstructed(3), DERWriter.tlv(DERTag.sequence, others))
                }
            }
            guard let found else { return nil }
            return (found, DERWriter.tlv(DERTag.sequence, kept))
        }
    }
}
