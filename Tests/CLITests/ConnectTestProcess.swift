import Glibc

/// A child process spawned with `posix_spawnp` with every signal unblocked and at its default action.
///
/// Foundation's `Process` passes on the spawning thread's signal mask, and the test runner's threads block
/// SIGTERM, so a server started that way ignores `terminate()`. The child runs under `timeout 300` so it can
/// never outlive a crashed test run by more than five minutes. Standard input and output are /dev/null.
final class ConnectTestProcess {
    /// The child's process id (the `timeout` wrapper, which forwards SIGTERM to the server).
    let pid: pid_t
    private var exitStatus: Int32?

    /// Spawns `arguments` (the program first, found on PATH).
    init(_ arguments: [String]) throws {
        let wrapped = ["timeout", "-k", "2", "300"] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv: [UnsafeMutablePointer<CChar>?] = wrapped.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawnp(&child, wrapped[0], &actions, &attributes, &argv, environ)
        guard status == 0 else {
            throw TestServerError(description: "posix_spawnp \(arguments[0]): \(String(cString: strerror(status)))")
        }
        pid = child
    }

    deinit { stop() }

    /// True while the child has not exited (reaps it when it has).
    var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid || result < 0 { exitStatus = status }
        return exitStatus == nil
    }

    /// SIGTERM, up to 3 seconds for the child to exit, then SIGKILL and up to 5 more seconds.
    func stop() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        for _ in 0..<60 where isRunning { usleep(50_000) }
        guard isRunning else { return }
        kill(pid, SIGKILL)
        for _ in 0..<100 where isRunning { usleep(50_000) }
    }
}
