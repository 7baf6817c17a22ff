import CertKit
internal import COpenSSL

/// Owns one `EVP_MD_CTX` for one signature verification; frees it exactly once in `deinit`.
final class OpenSSLDigestVerifyContext {
    /// The `EVP_MD_CTX *`.
    let handle: OpaquePointer
    /// The key the context verifies with, kept alive as long as the context may use it.
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

    /// `EVP_DigestVerify`: true only when it returns 1.
    func verify(signature: [UInt8], of data: [UInt8]) -> Bool {
        signature.withUnsafeBufferPointer { sig in
            data.withUnsafeBufferPointer { tbs in
                EVP_DigestVerify(handle, sig.baseAddress, sig.count, tbs.baseAddress, tbs.count) == 1
            }
        }
    }
}
