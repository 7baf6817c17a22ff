#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX thread that its creator joins: ``join()`` returns only once the thread has exited, its thread-local
/// destructors included. Join each thread exactly once.
///
/// Why not Foundation's `Thread` with a group the worker leaves: the worker leaves the group before it exits, so
/// the process could end while a worker was still tearing down. The libraries keep per-thread state (OpenSSL's
/// error queue, 904 bytes, is freed by a thread-local destructor); at exit, state whose thread was half gone is
/// unreachable, and LeakSanitizer reported it as a leak in about one `--batch` run in 30. Joined threads have
/// freed it before the batch's summary is written.
struct JoinedThread {
    private let id: pthread_t

    /// The body, handed to the new thread through its start argument.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts a thread with a stack of `stackSize` bytes running `body`; nil when the system refuses a thread.
    init?(stackSize: Int, body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        _ = pthread_attr_setstacksize(&attributes, stackSize)
        let argument = Unmanaged.passRetained(Body(body))
        var id = pthread_t()
        let status = pthread_create(&id, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, argument.toOpaque())
        guard status == 0 else {
            argument.release()
            return nil
        }
        self.id = id
    }

    /// Waits until the thread has exited.
    func join() {
        _ = pthread_join(id, nil)
    }
}
