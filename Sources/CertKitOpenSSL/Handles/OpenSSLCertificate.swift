import CertKit
internal import COpenSSL

/// Owns one `X509` parsed by OpenSSL from DER; frees it exactly once in `deinit`.
///
/// This is the only place certificates enter OpenSSL.
///
/// `@unchecked Sendable` is safe: `handle` is set once in `init` and freed only in `deinit`, after the last user
/// (the backend's handle cache and the prepared anchor stores share one handle across threads). Nothing here or in
/// the backend modifies the `X509` after parsing; OpenSSL reads it concurrently (verification, field reads) and
/// guards the extension data it caches lazily with the object's own lock.
final class OpenSSLCertificate: @unchecked Sendable {
    /// The `X509 *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    /// Parses `der` with `d2i_X509`, which must consume exactly all bytes.
    /// - Throws: ``BackendError`` with OpenSSL's reason, or naming the trailing bytes.
    init(der: [UInt8]) throws(BackendError) {
        handle = try OpenSSLDERDecoding.decode(
            der, function: "d2i_X509", what: "the certificate", d2i: { d2i_X509(nil, $0, $1) }, free: X509_free)
    }

    deinit { X509_free(handle) }

    /// True when OpenSSL considers both certificates identical (`X509_cmp`).
    func isSame(as other: OpaquePointer) -> Bool {
        X509_cmp(handle, other) == 0
    }
}
