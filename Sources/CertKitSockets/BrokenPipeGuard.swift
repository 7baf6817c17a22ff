internal import Glibc

/// Keeps a write to a connection the peer has closed or reset from killing the process.
///
/// Writing to such a socket raises SIGPIPE, whose default action ends the process (the command line, or any
/// program using the library). GnuTLS sends with `MSG_NOSIGNAL` (`GNUTLS_NO_SIGNAL`), and certkit's own sends do
/// too, but OpenSSL's socket BIO writes with `write`. Around OpenSSL's work on a connection, SIGPIPE is blocked on
/// the calling thread (it is sent to the thread that wrote) and one raised meanwhile is discarded; the write itself
/// fails with EPIPE, which the caller sees as an error. The technique PostgreSQL's libpq uses.
package enum BrokenPipeGuard {
    /// Runs `body` with SIGPIPE blocked on this thread, discarding a SIGPIPE it raised (one already pending
    /// before is left pending), then restores the thread's signal mask.
    package static func run<Value>(_ body: () throws(TLSConnectError) -> Value) throws(TLSConnectError) -> Value {
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipe, &previous)
        let wasPending = isPending()
        defer {
            if !wasPending, isPending() {
                var now = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipe, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return try body()
    }

    private static func isPending() -> Bool {
        var pending = sigset_t()
        sigpending(&pending)
        return sigismember(&pending, SIGPIPE) == 1
    }
}
