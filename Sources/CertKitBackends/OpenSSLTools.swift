import CertKit
import CertKitOpenSSL
import CertKitSockets

/// The two jobs of the command line that only OpenSSL does, whatever `--backend` says: the subject-name hash that
/// names `CApath` files (`certkit trust export --format openssl-dir`) and the TLS transport of `https://`
/// downloads (`certkit trust add URL`).
package enum OpenSSLTools {
    /// `X509_subject_name_hash`, as `openssl rehash` names a certificate's file.
    package static func subjectNameHash(of certificate: Certificate) throws(BackendError) -> UInt32 {
        try OpenSSLBackend().subjectNameHash(of: certificate)
    }

    /// Sends `request` over TLS and reads the answer until the server closes (see
    /// `OpenSSLTLSClient.exchange(host:port:serverName:request:limit:timeout:)`: the server's certificate is not
    /// judged).
    package static func exchange(
        host: String, port: UInt16, serverName: String?, request: [UInt8], limit: Int, timeout: Duration
    ) throws(TLSConnectError) -> [UInt8] {
        try OpenSSLTLSClient().exchange(
            host: host, port: port, serverName: serverName, request: request, limit: limit, timeout: timeout)
    }
}
