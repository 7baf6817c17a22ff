import CertKit

/// Anchors compiled into GnuTLS trust lists once, then shared read-only.
///
/// Each anchor gets its own one-entry trust list, keyed by its DER: the core hands the backend one path whose
/// last certificate is the anchor it chose, and a one-entry list makes GnuTLS verify exactly that path even
/// when several anchors share a subject name (a shared list could pick another anchor with the same name).
/// An anchor GnuTLS refuses to keep (`add_trust_mem` kept 0) has no list; the verifier then relies on its
/// per-link checks alone (see ``GnuTLSPathVerifier``).
///
/// `@unchecked Sendable` is safe because every stored property is immutable after `init`, the trust lists are
/// only ever read (`gnutls_x509_trust_list_verify_crt2` does not modify a list; GnuTLS shares lists across
/// TLS sessions and threads this way), and they are freed only in `deinit`, after the last reader is gone.
final class GnuTLSAnchorStore: PreparedAnchorStore, @unchecked Sendable {
    let anchors: [Certificate]
    private let trustLists: [[UInt8]: GnuTLSTrustList]

    /// Builds one trust list per distinct anchor.
    init(anchors: [Certificate]) throws(BackendError) {
        self.anchors = anchors
        var lists: [[UInt8]: GnuTLSTrustList] = [:]
        for anchor in anchors where lists[anchor.derEncoded] == nil {
            _ = try GnuTLSCertificate(der: anchor.derEncoded)  // refuse anchors GnuTLS cannot import, early
            let list = try GnuTLSTrustList()
            if try list.addTrusted(der: anchor.derEncoded) > 0 { lists[anchor.derEncoded] = list }
        }
        trustLists = lists
    }

    /// The one-entry trust list for `anchor`, or nil when GnuTLS would not keep it.
    func trustList(for anchorDER: [UInt8]) -> GnuTLSTrustList? { trustLists[anchorDER] }

    /// True when `der` is one of the anchors.
    func contains(_ der: [UInt8]) -> Bool { anchors.contains { $0.derEncoded == der } }
}
