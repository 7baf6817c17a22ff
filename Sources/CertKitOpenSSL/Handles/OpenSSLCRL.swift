import CertKit
internal import COpenSSL

/// Owns one `X509_CRL` parsed from DER; frees it exactly once in `deinit`.
final class OpenSSLCRL {
    /// The `X509_CRL *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    /// Parses `der` with `d2i_X509_CRL`, which must consume exactly all bytes.
    init(der: [UInt8]) throws(BackendError) {
        var consumed = 0
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let crl = d2i_X509_CRL(nil, &cursor, buffer.count)
            if let cursor { consumed = cursor - base }
            return crl
        }
        guard let parsed else { throw OpenSSLErrorQueue.error("d2i_X509_CRL failed") }
        guard consumed == der.count else {
            X509_CRL_free(parsed)
            OpenSSLErrorQueue.clear()
            throw BackendError("d2i_X509_CRL: \(der.count - consumed) trailing bytes after the CRL")
        }
        handle = parsed
    }

    deinit { X509_CRL_free(handle) }
}
