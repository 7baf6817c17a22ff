/// The certificate signatures an evaluator's backend has already verified, so that a link seen again (the shared
/// intermediate of every chain a server or a batch presents, signed by the same anchor) costs a table lookup
/// instead of a signature verification.
///
/// Only successes are kept, keyed by exactly what was verified: all of the signed certificate's DER (its
/// tbsCertificate, algorithm and signature) and all of the signer's SubjectPublicKeyInfo DER, hashed over every
/// byte with the process's random seed and compared byte for byte. A forged certificate, another signer key or a
/// changed algorithm is another key, so it is verified. The verdict of a link does not depend on the verify date,
/// the policies or the anchors (those are judged on every evaluation), only on the backend and on whether the
/// library's digest reading is part of it, which are fixed for one ``TrustEvaluator``.
///
/// Bounded: at most `capacity` links (least recently used evicted first), and certificates larger than
/// ``maxCertificateBytes`` are never kept, so the cache holds at most `capacity` × 16 KiB of DER (shared with the
/// certificates, not copied). Thread-safe; shared by every evaluation of one evaluator.
final class VerifiedSignatureCache: Sendable {
    /// A signed certificate and the key that verified its signature.
    struct Link: Hashable, Sendable {
        var certificate: EncodingKey
        var signerKey: EncodingKey
        /// The hash of the certificate's whole DER, kept once per certificate (``Certificate/hashOfDER``).
        var certificateHash: Int

        static func == (lhs: Link, rhs: Link) -> Bool {
            lhs.certificateHash == rhs.certificateHash && lhs.certificate == rhs.certificate
                && lhs.signerKey == rhs.signerKey
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(certificateHash)
            hasher.combine(signerKey)
        }
    }

    /// The largest certificate whose verified link is kept.
    static let maxCertificateBytes = 16 * 1_024

    private let table: CacheLock<LRUCache<Link, Void>>
    /// The most links kept; 0 keeps none.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        table = CacheLock(LRUCache(capacity: self.capacity))
    }

    /// The cache key for `certificate` signed by `signer`'s key, or nil when such a link is never kept.
    func link(_ certificate: Certificate, signedBy signer: Certificate) -> Link? {
        guard capacity > 0, certificate.derEncoded.count <= Self.maxCertificateBytes else { return nil }
        return Link(
            certificate: EncodingKey(certificate.derEncoded), signerKey: EncodingKey(signer.publicKey.derEncoded),
            certificateHash: certificate.hashOfDER)
    }

    /// True when `link`'s signature verified before.
    func isVerified(_ link: Link) -> Bool {
        table.withLock { $0.value(for: link) != nil }
    }

    /// Records that `link`'s signature verified.
    func recordVerified(_ link: Link) {
        table.withLock { $0.set((), for: link) }
    }

    /// Links held.
    var count: Int { table.withLock { $0.count } }
}
