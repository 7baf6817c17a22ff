/// The certificates an identity importer read from a PKCS#12 file or was given with a key file, decoded the one
/// way for both backends (package access: `OpenSSLIdentityImporter`, `GnuTLSIdentityImporter`).
package enum IdentityCertificates {
    /// Decodes DER certificates, keeping their order.
    /// - Throws: ``IdentityError/malformed(_:)`` with the decoder's reason for the first one that does not decode.
    package static func decode(_ ders: [[UInt8]]) throws(IdentityError) -> [Certificate] {
        do {
            return try ders.map { der throws(CertificateDecodingError) in try Certificate(derEncoded: der) }
        } catch {
            throw .malformed("a certificate in the file does not decode: \(error)")
        }
    }

    /// The identity of `leaf` (DER) with `others` as its intermediates and `key`, which the backend has checked is
    /// the leaf's key.
    /// - Throws: ``IdentityError/malformed(_:)`` when a certificate does not decode.
    package static func identity(leaf: [UInt8], others: [[UInt8]], key: any PrivateKeyStorage) throws(IdentityError)
        -> Identity
    {
        let certificates = try decode([leaf] + others)
        return Identity(
            certificate: certificates[0], intermediates: Array(certificates.dropFirst()),
            privateKey: PrivateKey(algorithm: certificates[0].publicKey.algorithm, storage: key))
    }
}
