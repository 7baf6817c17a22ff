/// The SHA-256 fingerprints of a report's chain, computed by the backend's library on first use (once per report,
/// shared by its copies): a caller that only needs the verdict, as a TLS client per connection, does not pay a
/// digest of every certificate. Compared and hashed by value. Published through a `PublishedReference`
/// (ThreadSanitizer follows its atomics; see `CacheLock` for why not `Mutex`): two threads that ask at once may both
/// compute, and every caller gets the value stored first.
final class ReportFingerprints: Sendable, Hashable {
    private final class Computed: Sendable {
        let value: [[UInt8]]
        init(_ value: [[UInt8]]) { self.value = value }
    }

    private let chain: [Certificate]
    private let backend: (any TrustBackend)?
    private let computed = PublishedReference<Computed>()

    /// Fingerprints already known.
    init(_ ready: [[UInt8]]) {
        chain = []
        backend = nil
        _ = computed.storeIfNil(Computed(ready))
    }

    /// The fingerprints of `chain`, to compute with `backend` on first use.
    init(chain: [Certificate], backend: any TrustBackend) {
        self.chain = chain
        self.backend = backend
    }

    /// The fingerprints, one per certificate of the chain; empty when the library could not compute one (then
    /// no exception can be made from the report: ``TrustReport/exceptions`` needs the leaf's).
    var value: [[UInt8]] {
        if let known = computed.load() { return known.value }
        var made: [[UInt8]] = []
        if let backend {
            do throws(BackendError) {
                made = try chain.map { certificate throws(BackendError) in
                    try backend.digest(.sha256, of: certificate.derEncoded)
                }
            } catch {
                made = []
            }
        }
        return computed.storeIfNil(Computed(made)).value
    }

    static func == (lhs: ReportFingerprints, rhs: ReportFingerprints) -> Bool { lhs === rhs || lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
