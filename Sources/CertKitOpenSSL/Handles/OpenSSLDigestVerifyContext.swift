import CertKit
internal import COpenSSL

/// Owns one `EVP_MD_CTX` for one signature verification, a copy of an ``OpenSSLVerifyTemplate``; frees it exactly
/// once in `deinit`. Never shared: each verification makes its own.
final class OpenSSLDigestVerifyContext {
    /// The `EVP_MD_CTX *`.
    let handle: OpaquePointer
    /// The template the context was copied from, kept alive as long as the context.
    private let template: OpenSSLVerifyTemplate

    /// Copies `template` (`EVP_MD_CTX_copy_ex`: the key, digest, padding, PSS salt length and MGF1 digest) into a
    /// fresh context, marked `EVP_MD_CTX_FLAG_FINALISE` (verified once, so `EVP_DigestVerifyFinal` need not
    /// duplicate the provider's context again to keep it reusable).
    init(copying template: OpenSSLVerifyTemplate) throws(BackendError) {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.error("EVP_MD_CTX_new failed") }
        handle = context
        self.template = template
        guard EVP_MD_CTX_copy_ex(context, template.handle) == 1 else {
            throw OpenSSLErrorQueue.error("EVP_MD_CTX_copy_ex failed")
        }
        EVP_MD_CTX_set_flags(context, EVP_MD_CTX_FLAG_FINALISE)
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
