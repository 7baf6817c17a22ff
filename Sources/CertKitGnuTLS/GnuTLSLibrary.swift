import CertKit
internal import CGnuTLS
internal import CGnuTLSShims
import Foundation

/// Process-wide GnuTLS setup and the helpers every handle type shares.
enum GnuTLSLibrary {
    /// `gnutls_global_init` (reference-counted by GnuTLS, auto-run by 3.7 too; called explicitly once here) and
    /// the one process-wide time function that honours per-thread verification dates.
    static let initializationCode: Int32 = {
        let code = gnutls_global_init()
        certkit_gnutls_install_time_function()
        return code
    }()

    /// Runs the one-time initialization; cheap and idempotent afterwards.
    static func ensureInitialized() throws(BackendError) {
        let code = initializationCode
        if code < 0 { throw BackendError(.library, "gnutls_global_init: \(errorString(code))") }
    }

    /// GnuTLS's own words for an error code.
    static func errorString(_ code: Int32) -> String {
        guard let text = gnutls_strerror(code) else { return "GnuTLS error \(code)" }
        return String(cString: text)
    }

    /// Throws a ``BackendError`` naming `operation` when `code` is a GnuTLS error (negative).
    @discardableResult
    static func check(_ code: Int32, _ operation: String) throws(BackendError) -> Int32 {
        if code < 0 { throw BackendError(.library, "\(operation): \(errorString(code))") }
        return code
    }

    /// `date` as GnuTLS's `time_t`, rounded down to the second as certificate times are.
    static func timeValue(_ date: Date) -> Int {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        if seconds >= Double(Int.max) { return Int.max }
        if seconds <= Double(Int.min) { return Int.min }
        return Int(seconds)
    }

    /// Runs `body` with GnuTLS seeing `date` as "now" on this thread only (a C thread-local read by the
    /// process-wide time function). `body` must be synchronous: the override belongs to the calling thread.
    static func withVerifyTime<T, E: Error>(_ date: Date, _ body: () throws(E) -> T) throws(E) -> T {
        certkit_gnutls_set_verify_time(timeValue(date))
        defer { certkit_gnutls_clear_verify_time() }
        return try body()
    }

    /// The time GnuTLS currently sees on this thread.
    static var currentTime: Int { certkit_gnutls_current_time() }

    /// Calls `body` with a datum viewing `bytes` (GnuTLS only reads through it).
    static func withDatum<R>(_ bytes: [UInt8], _ body: (inout gnutls_datum_t) -> R) -> R {
        var copy = bytes
        return copy.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
            return body(&datum)
        }
    }

    /// Copies a datum GnuTLS allocated into Swift memory and frees it with `gnutls_free`.
    static func takeDatum(_ datum: gnutls_datum_t) -> [UInt8] {
        defer { certkit_gnutls_free(datum.data) }
        guard let data = datum.data else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(datum.size)))
    }

    /// Verification flags that leave hash and key-size decisions to the core: SHA-1, MD5 and MD2 signatures
    /// are verified rather than rejected, and no verification profile is set (`GNUTLS_PROFILE_UNKNOWN`): even
    /// `GNUTLS_PROFILE_VERY_WEAK` rejects RSA-512 with GNUTLS_CERT_INSECURE_ALGORITHM, which would stop
    /// GnuTLS's verification before it checks anything else; without a profile GnuTLS checks no key sizes.
    static let permissiveAlgorithmFlags: UInt32 =
        GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1.rawValue | GNUTLS_VERIFY_ALLOW_SIGN_RSA_MD5.rawValue
        | GNUTLS_VERIFY_ALLOW_SIGN_RSA_MD2.rawValue | certkit_gnutls_profile_flags(GNUTLS_PROFILE_UNKNOWN)
}
