internal import CGnuTLS

/// The GnuTLS this process runs with (the shared library loaded at run time, not the headers built against).
package enum GnuTLSLibraryVersion {
    /// `GnuTLS ` and `gnutls_check_version(NULL)`, e.g. `GnuTLS 3.7.9`.
    package static var runtime: String {
        guard let text = gnutls_check_version(nil) else { return "GnuTLS (version unknown)" }
        return "GnuTLS " + String(cString: text)
    }
}
