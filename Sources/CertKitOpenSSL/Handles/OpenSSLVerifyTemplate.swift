import CertKit
internal import COpenSSL

/// Owns one `EVP_MD_CTX` initialised for verification with one key under one scheme (`EVP_DigestVerifyInit` with
/// the digest, then the RSA padding, PSS salt length and MGF1 digest) that nothing ever verifies with: it is the
/// read-only source each verification copies its own context from (``OpenSSLDigestVerifyContext``). Frees the
/// context exactly once in `deinit`.
///
/// Why: under OpenSSL 3.0 every `EVP_DigestVerifyInit` fetches the signature implementation and the digests through
/// the provider's property store (behind a process-wide lock); `EVP_MD_CTX_copy_ex` of an initialised context
/// duplicates the provider's context, settings included, without fetching anything.
///
/// `@unchecked Sendable` is safe: `handle` is set up completely in `init`, afterwards only read
/// (`EVP_MD_CTX_copy_ex` takes its source `const`, which OpenSSL supports from several threads at once), and freed
/// in `deinit` after the last user. The backend shares templates across threads through a `CertificateHandleCache`.
final class OpenSSLVerifyTemplate: @unchecked Sendable {
    /// The initialised `EVP_MD_CTX *`; only ever the source of a copy.
    let handle: OpaquePointer
    /// The key the template verifies with, kept alive as long as the template.
    private let key: OpenSSLPublicKey

    /// Creates a context and initializes it for verification with `key` and `digest` (nil for EdDSA);
    /// `configure` sets the padding on the key context OpenSSL returns.
    init(
        key: OpenSSLPublicKey, digest: OpaquePointer?, configure: (OpaquePointer) -> Bool
    ) throws(BackendError) {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.error("EVP_MD_CTX_new failed") }
        handle = context
        self.key = key
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context, &keyContext, digest, nil, key.handle) == 1 else {
            throw OpenSSLErrorQueue.error("EVP_DigestVerifyInit failed")
        }
        if let keyContext, !configure(keyContext) { throw OpenSSLErrorQueue.error("setting the RSA padding failed") }
    }

    deinit { EVP_MD_CTX_free(handle) }
}
