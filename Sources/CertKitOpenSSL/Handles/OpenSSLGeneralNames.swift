internal import COpenSSL

/// Owns one `GENERAL_NAMES` stack decoded by `X509_get_ext_d2i`; frees it and its names once in `deinit`.
final class OpenSSLGeneralNames {
    /// The `GENERAL_NAMES *`.
    private let handle: OpaquePointer

    /// Takes ownership of a stack returned by `X509_get_ext_d2i(NID_subject_alt_name)`.
    init(taking pointer: UnsafeMutableRawPointer) {
        handle = OpaquePointer(pointer)
    }

    deinit { GENERAL_NAMES_free(handle) }

    /// The names in stack order; valid while `self` lives.
    var names: [UnsafePointer<GENERAL_NAME>] {
        (0..<Int(OPENSSL_sk_num(handle))).compactMap { index in
            OPENSSL_sk_value(handle, Int32(index)).map { UnsafePointer($0.assumingMemoryBound(to: GENERAL_NAME.self)) }
        }
    }
}
