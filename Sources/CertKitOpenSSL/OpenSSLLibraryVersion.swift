internal import COpenSSL

/// The OpenSSL this process runs with (the shared library loaded at run time, not the headers built against).
package enum OpenSSLLibraryVersion {
    /// `OpenSSL_version(OPENSSL_VERSION)`, e.g. `OpenSSL 3.0.17 1 Jul 2025`.
    package static var runtime: String {
        guard let text = OpenSSL_version(OPENSSL_VERSION) else { return "OpenSSL (version unknown)" }
        return String(cString: text)
    }
}
