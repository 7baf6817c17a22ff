import Synchronization

/// A reference set at most once and then read by any thread: the publication that the lazily made parts of a
/// certificate and a name use (`DeferredAttributes`, `DeferredExtensions`).
///
/// Acquire/release atomics on an unmanaged reference, compiled into this module (ThreadSanitizer follows them; it
/// cannot see `Mutex`'s futex on Linux, see `CacheLock`), and specialised, unlike `AtomicLazyReference`, whose
/// generic calls into the Synchronization library were a visible share of an evaluation in a callgrind profile. Two threads that
/// store at once both succeed in returning one value: the first stored; the other's is released.
struct PublishedReference<Instance: AnyObject & Sendable>: ~Copyable, @unchecked Sendable {
    private let storage = Atomic<Unmanaged<Instance>?>(nil)

    init() {}

    deinit { storage.load(ordering: .acquiring)?.release() }

    /// The stored instance, if any.
    func load() -> Instance? { storage.load(ordering: .acquiring)?.takeUnretainedValue() }

    /// Stores `instance` unless one was stored first, and returns the one that is stored.
    func storeIfNil(_ instance: Instance) -> Instance {
        let candidate = Unmanaged.passRetained(instance)
        let (stored, current) = storage.compareExchange(
            expected: nil, desired: candidate, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if stored { return instance }
        candidate.release()
        guard let current else { preconditionFailure("a published reference is never cleared") }
        return current.takeUnretainedValue()
    }
}
