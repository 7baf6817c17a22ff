import CertKit
internal import COpenSSL

/// Owns one `EVP_PKEY` decoded from a DER SubjectPublicKeyInfo; frees it exactly once in `deinit`.
///
/// `@unchecked Sendable` is safe: `handle` is set once in `init` and freed only in `deinit`, after the last user
/// (the backend's key cache shares one key across threads). The key is only used as the read-only input of a
/// fresh `EVP_MD_CTX` per verification (`EVP_DigestVerifyInit`), which OpenSSL 3 supports from several threads
/// at once; nothing modifies the key after decoding.
final class OpenSSLPublicKey: @unchecked Sendable {
    /// The `EVP_PKEY *`; valid for the lifetime of this object.
    let handle: OpaquePointer

    /// Decodes `spki` with `d2i_PUBKEY`, which must consume all of it.
    init(spki: [UInt8]) throws(BackendError) {
        handle = try OpenSSLDERDecoding.decode(
            spki, function: "d2i_PUBKEY", what: "the key", d2i: { d2i_PUBKEY(nil, $0, $1) }, free: EVP_PKEY_free)
    }

    deinit { EVP_PKEY_free(handle) }
}
