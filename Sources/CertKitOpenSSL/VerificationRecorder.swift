internal import COpenSSLShims

/// One failure OpenSSL reported through the verify callback.
struct VerificationFailure: Sendable, Hashable {
    /// The chain depth OpenSSL reported (0 = leaf); equal to the candidate path index.
    var depth: Int
    /// The `X509_V_ERR_*` code.
    var code: Int32
}

/// Collects every `(depth, error)` the verify callback sees during one `X509_verify_cert` call.
///
/// One recorder belongs to one verification on one thread: it is reached from the callback through the
/// context's own ex_data slot, so concurrent verifications never share one.
final class VerificationRecorder {
    /// The ex_data index reserved once per process for the recorder pointer.
    static let exDataIndex: Int32 = certkit_X509_STORE_CTX_get_ex_new_index()

    /// The failures in the order OpenSSL reported them.
    private(set) var failures: [VerificationFailure] = []

    /// Records one failure (repeats of the same failure are kept once).
    func record(depth: Int, code: Int32) {
        let failure = VerificationFailure(depth: depth, code: code)
        if !failures.contains(failure) { failures.append(failure) }
    }
}
