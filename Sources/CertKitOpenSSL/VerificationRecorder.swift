internal import COpenSSL
internal import COpenSSLShims

/// One failure OpenSSL reported through the verify callback.
struct VerificationFailure: Sendable, Hashable {
    /// The chain depth OpenSSL reported (0 = leaf); equal to the candidate path index.
    var depth: Int
    /// The `X509_V_ERR_*` code.
    var code: Int32
}

/// The state of one `X509_verify_cert` call that the C callbacks reach: the candidate path OpenSSL must follow,
/// and every `(depth, error)` the verify callback sees.
///
/// One recorder belongs to one verification on one thread: it is reached from the callbacks through the
/// context's own ex_data slot, so concurrent verifications never share one.
final class VerificationRecorder {
    /// The candidate path as OpenSSL handles, leaf first, anchor last when the path ends at one.
    let path: [OpenSSLCertificate]

    /// Creates a recorder for `path`.
    init(path: [OpenSSLCertificate]) { self.path = path }

    /// Whether `issuer` is the certificate that follows `subject` on the candidate path; nil when `subject` is
    /// not on the path (OpenSSL then decides alone).
    func isPathIssuer(_ issuer: OpaquePointer, of subject: OpaquePointer) -> Bool? {
        guard let index = path.firstIndex(where: { $0.handle == subject })
            ?? path.firstIndex(where: { $0.isSame(as: subject) })
        else { return nil }
        guard index + 1 < path.count else { return false }
        let next = path[index + 1]
        return next.handle == issuer || next.isSame(as: issuer)
    }

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

extension VerificationRecorder {
    /// The store's `check_issued` hook: while a recorder is attached to `context`, `issuer` issued `subject`
    /// exactly when it follows `subject` on the candidate path, so OpenSSL builds the path the core chose, even
    /// through a certificate whose extensions OpenSSL cannot cache (it then reports `INVALID_EXTENSION` instead of
    /// failing to find the issuer). Self-issued checks (`subject == issuer`) and certificates off the path keep
    /// OpenSSL's own rule (`X509_check_issued`).
    static func checkIssued(context: OpaquePointer, subject: OpaquePointer, issuer: OpaquePointer) -> Int32 {
        if subject != issuer, let raw = X509_STORE_CTX_get_ex_data(context, exDataIndex) {
            let recorder = Unmanaged<VerificationRecorder>.fromOpaque(raw).takeUnretainedValue()
            if let onPath = recorder.isPathIssuer(issuer, of: subject) { return onPath ? 1 : 0 }
        }
        return X509_check_issued(issuer, subject) == X509_V_OK ? 1 : 0
    }
}
