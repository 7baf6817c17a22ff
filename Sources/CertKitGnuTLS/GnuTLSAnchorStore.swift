import CertKit
import Foundation

/// Anchors prepared for GnuTLS once, then shared read-only; their trust lists are made on first use.
///
/// Each anchor gets its own one-entry trust list, keyed by its DER: the core hands the backend one path whose
/// last certificate is the anchor it chose, and a one-entry list makes GnuTLS verify exactly that path even
/// when several anchors share a subject name (a shared list could pick another anchor with the same name).
/// An anchor GnuTLS refuses to keep (`add_trust_mem` kept 0) has no list; the verifier then relies on its
/// per-link checks alone (see ``GnuTLSPathVerifier``).
///
/// Memory: a trust list holds GnuTLS's own parsed copy of its anchor (tens of kilobytes), so lists are made
/// when a path first ends at their anchor, with a one-bucket hash table, and at most ``listCapacity`` are kept
/// (when full, the kept lists are dropped and rebuilt on demand). Building one list per anchor up front cost
/// 1.4 GB for 60,000 anchors; the store now holds only the anchors' DER. Every anchor is imported once here to
/// learn which GnuTLS can parse; one it cannot parse never breaks paths that end at the other anchors.
///
/// `@unchecked Sendable` is safe because `anchors` and `importable` are immutable after `init`, the cache of
/// lists is guarded by a lock, the lists are only ever read once made (`gnutls_x509_trust_list_verify_crt2`
/// does not modify a list; GnuTLS shares lists across TLS sessions and threads this way), and a list is freed
/// only in its `deinit`, after the last verifier holding it is gone.
final class GnuTLSAnchorStore: PreparedAnchorStore, @unchecked Sendable {
    /// The most trust lists kept at once.
    static let listCapacity = 256

    let anchors: [Certificate]
    /// The DER of every distinct anchor.
    private let importable: Set<[UInt8]>
    private let lock = NSLock()
    /// The anchors' public keys, imported when an anchor first signs a link and kept with the anchors, whatever the
    /// backend's own cache capacity (the same bounded cache the backend uses, keyed by SPKI DER).
    let signerKeys = CertificateHandleCache<GnuTLSPublicKey>(capacity: GnuTLSAnchorStore.signerKeyCapacity)
    /// The most anchor keys kept.
    static let signerKeyCapacity = 256
    /// Lists made so far, by anchor DER; nil for an anchor GnuTLS would not keep.
    private var lists: [[UInt8]: GnuTLSTrustList?] = [:]

    /// Notes which anchors GnuTLS imports; makes no trust list yet. An anchor GnuTLS cannot import does not stop
    /// the others from being used: a path that ends at it gets no trust list, and the library verdict, which
    /// imports every certificate of the path, fails that path closed.
    init(anchors: [Certificate]) throws(BackendError) {
        self.anchors = anchors
        var importable = Set<[UInt8]>(minimumCapacity: anchors.count)
        for anchor in anchors where !importable.contains(anchor.derEncoded) {
            if (try? GnuTLSCertificate(der: anchor.derEncoded)) != nil { importable.insert(anchor.derEncoded) }
        }
        self.importable = importable
    }

    /// The one-entry trust list for `anchor`, or nil when it is not an anchor, GnuTLS would not keep it, or
    /// GnuTLS failed to make the list (it can only fail to allocate; the verifier's per-link checks still run).
    /// Prefer ``makeTrustList(for:)``, which reports that failure.
    func trustList(for anchorDER: [UInt8]) -> GnuTLSTrustList? {
        (try? makeTrustList(for: anchorDER)) ?? nil
    }

    /// The one-entry trust list for `anchor`, made on first use; nil when it is not an anchor or GnuTLS would
    /// not keep it.
    /// - Throws: ``BackendError`` when GnuTLS fails to make the list.
    func makeTrustList(for anchorDER: [UInt8]) throws(BackendError) -> GnuTLSTrustList? {
        guard importable.contains(anchorDER) else { return nil }
        if let known = lock.withLock({ lists[anchorDER] }) { return known }
        let list = try GnuTLSTrustList(size: 1)
        let made = try list.addTrusted(der: anchorDER) > 0 ? list : nil
        lock.withLock {
            if lists.count >= Self.listCapacity { lists.removeAll(keepingCapacity: true) }
            lists[anchorDER] = made
        }
        return made
    }

    /// How many trust lists are currently kept (for tests).
    var keptListCount: Int { lock.withLock { lists.count } }
}
