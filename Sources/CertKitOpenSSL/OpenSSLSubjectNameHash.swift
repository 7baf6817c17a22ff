import CertKit
internal import COpenSSL

extension OpenSSLBackend {
    /// OpenSSL's hash of the certificate's subject name (`X509_subject_name_hash`, what `openssl x509 -hash`
    /// prints): the `CApath` file name `<hash>.<n>` that `openssl rehash` gives the certificate.
    /// ``TrustStore/exportOpenSSLDirectory(to:subjectHash:)`` names its files with it.
    package func subjectNameHash(of certificate: Certificate) throws(BackendError) -> UInt32 {
        let x509 = try OpenSSLCertificate(der: certificate.derEncoded)
        return UInt32(truncatingIfNeeded: X509_subject_name_hash(x509.handle))
    }
}
