import CertKit
import Foundation
internal import COpenSSL
internal import COpenSSLShims

/// Owns one `X509_STORE_CTX` for one verification; frees it exactly once in `deinit`.
///
/// It keeps the store, the target, the untrusted stack and the CRL stack alive for as long as OpenSSL may use
/// them (`X509_STORE_CTX_set0_crls` does not take ownership). Its `X509_VERIFY_PARAM` is its own copy, so setting
/// the time and flags here never touches the shared store.
final class OpenSSLStoreContext {
    private let handle: OpaquePointer
    private let store: OpenSSLStore
    private let target: OpenSSLCertificate
    private let untrusted: OpenSSLCertificateStack
    private let crls: OpenSSLCRLStack?

    /// Creates a context that verifies `target` against `store`, with `untrusted` as the only other certificates
    /// OpenSSL may use, at `date`, checking revocation against `crls` when given.
    init(
        store: OpenSSLStore, target: OpenSSLCertificate, untrusted: OpenSSLCertificateStack, date: Date,
        crls: OpenSSLCRLStack?
    ) throws(BackendError) {
        guard let context = X509_STORE_CTX_new() else { throw OpenSSLErrorQueue.error("X509_STORE_CTX_new failed") }
        handle = context
        self.store = store
        self.target = target
        self.untrusted = untrusted
        self.crls = crls
        guard X509_STORE_CTX_init(context, store.handle, target.handle, untrusted.handle) == 1 else {
            throw OpenSSLErrorQueue.error("X509_STORE_CTX_init failed")
        }
        guard let param = X509_STORE_CTX_get0_param(context) else {
            throw OpenSSLErrorQueue.error("X509_STORE_CTX_get0_param failed")
        }
        // Any anchor is a trust anchor, self-signed or not (and a leaf may be one). No X509_V_FLAG_X509_STRICT:
        // in OpenSSL 3 it adds profile rules (AKI/SKI presence, critical basicConstraints, ...) that are policy,
        // which belongs to the core (the rfc5280 and webpki profiles). X509_V_FLAG_IGNORE_CRITICAL: which critical
        // extensions are acceptable is the core's rule too (certkit.critical-extensions), as for GnuTLS (OpenSSL
        // does not list authorityKeyIdentifier, subjectKeyIdentifier or authorityInfoAccess as supported, so a
        // critical one would otherwise fail every profile); the CRLs it sees were validated by the core.
        var flags = UInt(X509_V_FLAG_PARTIAL_CHAIN | X509_V_FLAG_IGNORE_CRITICAL)
        if let crls {
            flags |= UInt(X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL)
            X509_STORE_CTX_set0_crls(context, crls.handle)
        }
        guard X509_VERIFY_PARAM_set_flags(param, flags) == 1 else {
            throw OpenSSLErrorQueue.error("X509_VERIFY_PARAM_set_flags failed")
        }
        // Level 0: key sizes and digest strength are the core's policy, not OpenSSL's.
        X509_VERIFY_PARAM_set_auth_level(param, 0)
        // Name constraints never apply to the subject CN here: whether they do is a profile rule of the core
        // (webpki.name-constraints-cn); OpenSSL would otherwise apply them whenever the leaf has no DNS SAN.
        X509_VERIFY_PARAM_set_hostflags(param, UInt32(X509_CHECK_FLAG_NEVER_CHECK_SUBJECT))
        X509_VERIFY_PARAM_set_time(param, time_t(date.timeIntervalSince1970.rounded(.down)))
        // No purpose, no trust setting, no host: X509_STORE_CTX_init leaves them unset.
    }

    deinit { X509_STORE_CTX_free(handle) }

    /// Runs `X509_VERIFY_CERT` with a callback that records every failure into `recorder` and lets verification
    /// continue, so every failure is reported.
    /// - Throws: ``BackendError`` when OpenSSL fails as a library (`X509_verify_cert` < 0, or not 0 or 1).
    func verify(recordingInto recorder: VerificationRecorder) throws(BackendError) {
        let index = VerificationRecorder.exDataIndex
        guard index >= 0 else { throw OpenSSLErrorQueue.error("X509_STORE_CTX_get_ex_new_index failed") }
        let result: Int32 = withExtendedLifetime(recorder) {
            X509_STORE_CTX_set_ex_data(handle, index, Unmanaged.passUnretained(recorder).toOpaque())
            X509_STORE_CTX_set_verify_cb(handle) { ok, context in
                guard let context, let raw = X509_STORE_CTX_get_ex_data(context, VerificationRecorder.exDataIndex)
                else { return ok }
                guard ok == 0 else { return 1 }
                let recorder = Unmanaged<VerificationRecorder>.fromOpaque(raw).takeUnretainedValue()
                recorder.record(
                    depth: Int(X509_STORE_CTX_get_error_depth(context)), code: X509_STORE_CTX_get_error(context))
                return 1
            }
            let result = X509_verify_cert(handle)
            X509_STORE_CTX_set_ex_data(handle, index, nil)
            return result
        }
        // Documented: 1 verified, 0 refused, < 0 the library failed; anything else is not an answer.
        guard result == 0 || result == 1 else { throw OpenSSLErrorQueue.error("X509_verify_cert failed") }
        if result == 0 && recorder.failures.isEmpty {
            // Cannot happen with a callback that returns 1, but never let a refusal pass unrecorded: a refusal
            // that names no error (X509_V_OK) is recorded as an unspecified one.
            let code = X509_STORE_CTX_get_error(handle)
            recorder.record(
                depth: Int(X509_STORE_CTX_get_error_depth(handle)), code: code == X509_V_OK ? X509_V_ERR_UNSPECIFIED : code)
        }
        // Successful verifications can leave entries (e.g. from a failed signature check): drop them.
        OpenSSLErrorQueue.clear()
    }

    /// The chain OpenSSL built (`X509_STORE_CTX_get0_chain`), leaf first; borrowed pointers, valid while `self` lives.
    var builtChain: [OpaquePointer] {
        guard let chain = X509_STORE_CTX_get0_chain(handle) else { return [] }
        return (0..<certkit_sk_X509_num(chain)).compactMap { certkit_sk_X509_value(chain, $0) }
    }
}
