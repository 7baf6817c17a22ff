import CertKit
internal import COpenSSL

/// Owns one `X509_CRL` parsed from DER; frees it exactly once in `deinit`.
final class OpenSSLCRL {
    /// The `X509_CRL *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    /// Parses `der` with `d2i_X509_CRL`, which must consume exactly all bytes.
    init(der: [UInt8]) throws(BackendError) {
        handle = try OpenSSLDERDecoding.decode(
            der, function: "d2i_X509_CRL", what: "the CRL", d2i: { d2i_X509_CRL(nil, $0, $1) }, free: X509_CRL_free)
    }

    deinit { X509_CRL_free(handle) }
}
