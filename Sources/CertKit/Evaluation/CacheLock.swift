import Foundation

/// The lock guarding a cache's state: a `pthread_mutex` (through `NSLock`) around a value.
///
/// Why not `Synchronization.Mutex`: on Linux it is a raw futex that ThreadSanitizer cannot see, so every cache
/// access from two threads is reported as a data race and the sanitizer run (`Scripts/test.sh`) fails even
/// though the code is correct. `pthread_mutex_lock` is intercepted by ThreadSanitizer, and uncontended it costs
/// the same few nanoseconds.
///
/// A `CacheLock` is `Sendable` only when its state is (see the extension below): the lock makes sharing the box
/// safe, not sharing what it hands out.
final class CacheLock<State> {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    /// Runs `body` with exclusive access to the state.
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

/// `@unchecked` because the compiler cannot see that `lock` guards `state`: every access to `state` goes through
/// ``withLock(_:)``, which holds the lock for the whole access, and `state` is never handed out by reference.
/// The state itself must be `Sendable`, since values move in and out of the box across threads.
extension CacheLock: @unchecked Sendable where State: Sendable {}
