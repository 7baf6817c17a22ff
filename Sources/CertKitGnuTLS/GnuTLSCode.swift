internal import CGnuTLS

/// A GnuTLS error code (`GNUTLS_E_*`, negative) as a Swift error, for callers that branch on the code.
struct GnuTLSCode: Error, Equatable {
    let code: Int32

    init(_ code: Int32) { self.code = code }

    /// `gnutls_strerror`.
    var message: String { GnuTLSLibrary.errorString(code) }

}
