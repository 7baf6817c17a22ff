internal import COpenSSL

/// Owns one `BASIC_CONSTRAINTS` decoded by `X509_get_ext_d2i`; frees it once in `deinit`.
final class OpenSSLBasicConstraints {
    /// The `BASIC_CONSTRAINTS *`.
    private let handle: UnsafeMutablePointer<BASIC_CONSTRAINTS>

    /// Takes ownership of a value returned by `X509_get_ext_d2i(NID_basic_constraints)`.
    init(taking pointer: UnsafeMutableRawPointer) {
        handle = pointer.assumingMemoryBound(to: BASIC_CONSTRAINTS.self)
    }

    deinit { BASIC_CONSTRAINTS_free(handle) }

    /// The cA flag.
    var isCA: Bool { handle.pointee.ca != 0 }

    /// pathLenConstraint, nil when absent (`ASN1_INTEGER_get`).
    var pathLength: Int? {
        guard let integer = handle.pointee.pathlen else { return nil }
        return Int(ASN1_INTEGER_get(integer))
    }
}
