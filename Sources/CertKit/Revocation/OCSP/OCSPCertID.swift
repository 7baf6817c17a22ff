/// CertID (RFC 6960 §4.1.1): a certificate named by its serial number and hashes of its issuer's name and key.
package struct OCSPCertID: Sendable, Hashable {
    /// The hash algorithm, when it is one certkit computes (SHA-1 or SHA-256); nil for any other (never matches).
    package let hashAlgorithm: DigestAlgorithm?
    /// The hash of the issuer's subject name (DER).
    package let issuerNameHash: [UInt8]
    /// The hash of the issuer's subjectPublicKey BIT STRING value.
    package let issuerKeyHash: [UInt8]
    /// The certificate's serial number (content octets, as in ``Certificate/serialNumber``).
    package let serialNumber: [UInt8]

    /// True when this certID names `certificate` issued by `issuer`; the hashes are computed by `backend`.
    func names(_ certificate: Certificate, issuedBy issuer: Certificate, backend: any TrustBackend) throws(BackendError) -> Bool {
        guard let hashAlgorithm, serialNumber == certificate.serialNumber,
              let keyBits = OCSPResponseParser.subjectPublicKeyBits(issuer.publicKey) else { return false }
        guard try backend.digest(hashAlgorithm, of: issuer.subject.derEncoded) == issuerNameHash else { return false }
        return try backend.digest(hashAlgorithm, of: keyBits) == issuerKeyHash
    }
}
