import Foundation

/// A value behind an `NSLock`, for state the support library shares between threads (a process's reader threads, a
/// backend double's call counts). Not `Synchronization.Mutex`: on Linux it waits on a futex that ThreadSanitizer does
/// not see, so every access it protects is reported as a race; `NSLock` is a pthread mutex TSan follows.
package final class LockedValue<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: State

    /// A lock around `value`.
    package init(_ value: State) { self.value = value }

    /// Runs `body` with the value, the lock held.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
