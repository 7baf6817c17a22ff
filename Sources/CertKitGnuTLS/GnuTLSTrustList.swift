import CertKit
internal import CGnuTLS

/// Owns one `gnutls_x509_trust_list_t` and everything in it; freed once (with its contents) in `deinit`.
///
/// Anchors are added as DER with `gnutls_x509_trust_list_add_trust_mem`: the list imports its own copies, so
/// the list and certkit's certificate handles never own the same memory, and `deinit(list, 1)` frees exactly
/// what the list made.
final class GnuTLSTrustList {
    /// The handle; never leaves the module.
    let handle: gnutls_x509_trust_list_t

    /// An empty list whose hash table has `size` buckets (0: GnuTLS's default of 127, sized for a whole CA
    /// bundle; a one-entry list needs 1).
    init(size: UInt32 = 0) throws(BackendError) {
        try GnuTLSLibrary.ensureInitialized()
        var created: gnutls_x509_trust_list_t?
        try GnuTLSLibrary.check(gnutls_x509_trust_list_init(&created, size), "gnutls_x509_trust_list_init")
        guard let created else { throw BackendError(.library, "gnutls_x509_trust_list_init returned no list") }
        handle = created
    }

    deinit { gnutls_x509_trust_list_deinit(handle, 1) }

    /// Adds one DER certificate as trusted; returns how many certificates GnuTLS kept (0 or 1).
    @discardableResult
    func addTrusted(der: [UInt8]) throws(BackendError) -> Int {
        let code = GnuTLSLibrary.withDatum(der) { datum in
            gnutls_x509_trust_list_add_trust_mem(handle, &datum, nil, GNUTLS_X509_FMT_DER, 0, 0)
        }
        return Int(try GnuTLSLibrary.check(code, "gnutls_x509_trust_list_add_trust_mem"))
    }

    /// Verifies `chain` (leaf first, exactly in this order) against the list; returns the status word.
    /// Reads the list only, so one list may serve many threads at once.
    func verify(_ chain: [GnuTLSCertificate], flags: UInt32) throws(BackendError) -> UInt32 {
        var handles: [gnutls_x509_crt_t?] = chain.map(\.handle)
        var status: UInt32 = 0
        let code = withExtendedLifetime(chain) {
            gnutls_x509_trust_list_verify_crt2(handle, &handles, UInt32(handles.count), nil, 0, flags, &status, nil)
        }
        try GnuTLSLibrary.check(code, "gnutls_x509_trust_list_verify_crt2")
        return status
    }
}
