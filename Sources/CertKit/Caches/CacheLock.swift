import Foundation

/// The lock guarding a cache's state: a `pthread_mutex` around a value.
///
/// Why not `Synchronization.Mutex`: on Linux it is a raw futex that ThreadSanitizer cannot see, so every cache
/// access from two threads is reported as a data race and the sanitizer run (`Scripts/test.sh`) fails even
/// though the code is correct. `pthread_mutex_lock` is intercepted by ThreadSanitizer, and uncontended it costs
/// the same few nanoseconds.
///
/// A `CacheLock` is `Sendable` only when its state is (see the extension below): the lock makes sharing the box
/// safe, not sharing what it hands out.
final class CacheLock<State> {
    /// An adaptive mutex (`PTHREAD_MUTEX_ADAPTIVE_NP`): the critical sections are a table lookup, so a thread that
    /// finds the lock taken spins briefly instead of sleeping at once. With `NSLock`'s plain mutex every collision
    /// cost a futex sleep and wake-up, and on a busy machine the woken thread waited for a CPU: two workers of
    /// `evaluate --batch` spent a quarter of their waits on the handle cache.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}

/// `@unchecked` because the compiler cannot see that `lock` guards `state`: every access to `state` goes through
/// ``withLock(_:)``, which holds the lock for the whole access, and `state` is never handed out by reference.
/// The state itself must be `Sendable`, since values move in and out of the box across threads.
extension CacheLock: @unchecked Sendable where State: Sendable {}
