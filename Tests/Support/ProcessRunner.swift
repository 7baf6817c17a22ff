import Dispatch
import Foundation
import Glibc
import Synchronization

/// A child process that could not be started, or that failed.
package struct ProcessError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}

/// A child's standard input.
package enum ProcessInput: Sendable {
    /// /dev/null.
    case null
    /// A pipe that receives these bytes (written on a thread of its own) and is then closed.
    case bytes([UInt8])
    /// A pipe the caller writes with ``RunningProcess/write(_:)`` and closes with ``RunningProcess/closeInput()``.
    case pipe
}

/// What happens to a child's standard output and error.
package enum ProcessOutput: Sendable {
    /// Both captured, apart.
    case capture
    /// Standard error joined to standard output: one captured stream, in the order written.
    case merged
    /// Both to /dev/null.
    case discard
}

/// How a child process ended and what it wrote.
package struct ProcessResult: Sendable {
    /// The exit status, or the number of the signal that ended the process (as Foundation's `Process` reports it).
    package var status: Int32
    /// The signal that ended the process, if one did.
    package var signal: Int32?
    /// Standard output (with ``ProcessOutput/merged``, standard error too).
    package var stdout: [UInt8]
    /// Standard error (empty with ``ProcessOutput/merged``).
    package var stderr: [UInt8]
    /// True when the process was killed because it outran its timeout.
    package var timedOut: Bool

    package var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    package var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// A child process started with `posix_spawnp`: standard input, output and error as asked, every signal unblocked
/// (the test runner's threads block SIGTERM, and a child inherits the mask), no descriptor of the test process
/// but its own 0, 1 and 2. Captured output is read on threads of its own, so the child never blocks on a full
/// pipe. Stopped when released.
package final class RunningProcess: Sendable {
    /// The process id.
    package let pid: pid_t
    /// The command, program first.
    package let command: [String]
    private let shared: Shared

    /// State shared with the threads that read output and wait for the exit (they never hold the process itself,
    /// so releasing it stops the child).
    private final class Shared: Sendable {
        struct State {
            var waitStatus: Int32?
            var stdout: [UInt8] = []
            var stderr: [UInt8] = []
            var timedOut = false
            var input: Int32?
        }

        let state = LockedValue(State())
        let exited = DispatchGroup()
        let outputClosed = DispatchGroup()
    }

    /// Starts `command` (the program first, found on PATH unless it names a path).
    /// - Parameters:
    ///   - environment: variables set over the test process's environment.
    ///   - currentDirectory: the child's working directory (the test process's by default).
    ///   - defaultSignalActions: also resets every signal to its default action (a signal the test process
    ///     ignores stays ignored otherwise).
    package init(
        _ command: [String], input: ProcessInput = .null, output: ProcessOutput = .capture,
        environment: [String: String] = [:], currentDirectory: String? = nil, defaultSignalActions: Bool = false
    ) throws {
        precondition(!command.isEmpty, "a command names a program")
        self.command = command
        let shared = Shared()
        self.shared = shared

        var opened: [Int32] = []
        func makePipe() throws -> (read: Int32, write: Int32) {
            var descriptors: [Int32] = [-1, -1]
            guard pipe(&descriptors) == 0 else { throw ProcessError("pipe: \(String(cString: strerror(errno)))") }
            for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            opened += descriptors
            return (descriptors[0], descriptors[1])
        }
        var parentEnds: (input: Int32?, stdout: Int32?, stderr: Int32?) = (nil, nil, nil)
        var childEnds: [Int32] = []
        do {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            switch input {
            case .null:
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            case .bytes, .pipe:
                let ends = try makePipe()
                posix_spawn_file_actions_adddup2(&actions, ends.read, 0)
                parentEnds.input = ends.write
                childEnds.append(ends.read)
            }
            switch output {
            case .discard:
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            case .merged:
                let ends = try makePipe()
                posix_spawn_file_actions_adddup2(&actions, ends.write, 1)
                posix_spawn_file_actions_adddup2(&actions, ends.write, 2)
                parentEnds.stdout = ends.read
                childEnds.append(ends.write)
            case .capture:
                let out = try makePipe()
                let err = try makePipe()
                posix_spawn_file_actions_adddup2(&actions, out.write, 1)
                posix_spawn_file_actions_adddup2(&actions, err.write, 2)
                parentEnds.stdout = out.read
                parentEnds.stderr = err.read
                childEnds += [out.write, err.write]
            }
            // glibc's closefrom and chdir actions (2.34, 2.29) are not in the Glibc module: looked up by name.
            guard let closeFrom = Self.glibcFunction("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self),
                  closeFrom(&actions, 3) == 0
            else { throw ProcessError("posix_spawn_file_actions_addclosefrom_np is unavailable") }
            if let currentDirectory {
                guard let chdir = Self.glibcFunction("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self),
                      chdir(&actions, currentDirectory) == 0
                else { throw ProcessError("posix_spawn_file_actions_addchdir_np is unavailable") }
            }

            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var flags = Int32(POSIX_SPAWN_SETSIGMASK)
            if defaultSignalActions {
                var all = sigset_t()
                sigfillset(&all)
                posix_spawnattr_setsigdefault(&attributes, &all)
                flags |= Int32(POSIX_SPAWN_SETSIGDEF)
            }
            posix_spawnattr_setflags(&attributes, Int16(flags))

            var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var child: pid_t = 0
            let status: Int32
            if environment.isEmpty {
                status = posix_spawnp(&child, command[0], &actions, &attributes, &argv, environ)
            } else {
                let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                var envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
                defer { for pointer in envp { free(pointer) } }
                status = posix_spawnp(&child, command[0], &actions, &attributes, &argv, &envp)
            }
            guard status == 0 else {
                throw ProcessError("cannot start \(command[0]): \(String(cString: strerror(status)))")
            }
            pid = child
        } catch {
            for descriptor in opened { close(descriptor) }
            throw error
        }
        for descriptor in childEnds { close(descriptor) }

        shared.exited.enter()
        let pid = pid
        Thread.detachNewThread {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
            shared.state.withLock { state in
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                state.waitStatus = status
            }
            shared.exited.leave()
        }
        for (descriptor, isStandardError) in [(parentEnds.stdout, false), (parentEnds.stderr, true)] {
            guard let descriptor else { continue }
            shared.outputClosed.enter()
            Thread.detachNewThread {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { break }
                    shared.state.withLock { state in
                        if isStandardError {
                            state.stderr += buffer[0..<count]
                        } else {
                            state.stdout += buffer[0..<count]
                        }
                    }
                }
                close(descriptor)
                shared.outputClosed.leave()
            }
        }
        if let descriptor = parentEnds.input {
            if case .bytes(let bytes) = input {
                Thread.detachNewThread {
                    Self.withSIGPIPEBlocked { _ = Self.writeAll(bytes, to: descriptor) }
                    close(descriptor)
                }
            } else {
                shared.state.withLock { $0.input = descriptor }
            }
        }
    }

    deinit {
        closeInput()
        stop()
    }

    /// True while the process has not exited.
    package var isRunning: Bool { shared.state.withLock { $0.waitStatus == nil } }

    /// Standard output captured so far.
    package var standardOutput: [UInt8] { shared.state.withLock { $0.stdout } }

    /// Writes `bytes` to the standard input pipe (``ProcessInput/pipe``); a child that stopped reading is no error
    /// of the test process (no SIGPIPE).
    package func write(_ bytes: [UInt8]) throws {
        guard let descriptor = shared.state.withLock({ $0.input }) else {
            throw ProcessError("\(command[0]): standard input is not an open pipe")
        }
        let written = Self.withSIGPIPEBlocked { Self.writeAll(bytes, to: descriptor) }
        guard written else { throw ProcessError("\(command[0]): write to standard input: \(String(cString: strerror(errno)))") }
    }

    /// Closes the standard input pipe (the child reads end of file).
    package func closeInput() {
        if let descriptor = shared.state.withLock({ state -> Int32? in
            defer { state.input = nil }
            return state.input
        }) {
            close(descriptor)
        }
    }

    /// Sends `signal` unless the process has exited (never to a reaped, reused id).
    package func send(_ signal: Int32) {
        shared.state.withLock { state in
            if state.waitStatus == nil { kill(pid, signal) }
        }
    }

    /// Waits until `condition` holds for the standard output captured so far, or the output ends, or `timeout`
    /// seconds pass; returns whether it holds.
    package func waitForOutput(timeout: TimeInterval = 30, until condition: ([UInt8]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if condition(standardOutput) { return true }
            if shared.outputClosed.wait(timeout: .now()) == .success || Date() >= deadline {
                return condition(standardOutput)
            }
            usleep(10_000)
        }
    }

    /// Waits for the process to exit, killing it (SIGKILL) once `timeout` seconds have passed, then for its output
    /// to end (at most 10 seconds more: a process it started may hold the pipes), and returns how it ended.
    package func wait(timeout: TimeInterval? = nil) -> ProcessResult {
        if let timeout, shared.exited.wait(timeout: .now() + timeout) == .timedOut {
            shared.state.withLock { state in
                if state.waitStatus == nil {
                    state.timedOut = true
                    kill(pid, SIGKILL)
                }
            }
        }
        shared.exited.wait()
        _ = shared.outputClosed.wait(timeout: .now() + 10)
        return shared.state.withLock { state in
            let raw = state.waitStatus ?? 0
            let signal = raw & 0x7F
            let signaled = signal != 0 && signal != 0x7F
            return ProcessResult(
                status: signaled ? signal : (raw >> 8) & 0xFF, signal: signaled ? signal : nil, stdout: state.stdout,
                stderr: state.stderr, timedOut: state.timedOut)
        }
    }

    /// Stops the process: SIGTERM, up to `grace` seconds for it to exit, then SIGKILL and up to 5 more seconds.
    package func stop(grace: TimeInterval = 3) {
        guard isRunning else { return }
        send(SIGTERM)
        guard shared.exited.wait(timeout: .now() + grace) == .timedOut else { return }
        send(SIGKILL)
        _ = shared.exited.wait(timeout: .now() + 5)
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (
        UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?
    ) -> Int32

    private static func glibcFunction<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// Runs `body` with SIGPIPE blocked on this thread, discarding a SIGPIPE it raised.
    private static func withSIGPIPEBlocked<T>(_ body: () -> T) -> T {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        var pendingBefore = sigset_t()
        sigpending(&pendingBefore)
        let result = body()
        if sigismember(&pendingBefore, SIGPIPE) == 0 {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var zero = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &zero)
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result
    }
}

/// Runs commands to their end.
package enum ProcessRunner {
    /// Runs `command` (the program first, found on PATH unless it names a path) and returns how it ended; with a
    /// `timeout` (seconds) the process is killed when it outruns it (``ProcessResult/timedOut``).
    package static func run(
        _ command: [String], input: ProcessInput = .null, output: ProcessOutput = .capture,
        environment: [String: String] = [:], currentDirectory: String? = nil, timeout: TimeInterval? = nil
    ) throws -> ProcessResult {
        let process = try RunningProcess(
            command, input: input, output: output, environment: environment, currentDirectory: currentDirectory)
        return process.wait(timeout: timeout)
    }

    /// Runs `command` as ``run(_:input:output:environment:currentDirectory:timeout:)`` does and returns its standard
    /// output; throws ``ProcessError`` (naming the command, the status and standard error) unless it exits 0.
    @discardableResult
    package static func check(
        _ command: [String], input: ProcessInput = .null, environment: [String: String] = [:],
        currentDirectory: String? = nil
    ) throws -> [UInt8] {
        let result = try run(command, input: input, environment: environment, currentDirectory: currentDirectory)
        guard result.status == 0, result.signal == nil else {
            throw ProcessError("`\(command.joined(separator: " "))` failed (\(result.status)): \(result.stderrText)")
        }
        return result.stdout
    }
}

/// Ports of 127.0.0.1.
package enum LoopbackPort {
    private static func address(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// A port of 127.0.0.1 that was free a moment ago (bound with port 0, read back, closed).
    package static func free() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ProcessError("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var bound = address(0)
        let result = withUnsafePointer(to: &bound) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw ProcessError("bind 127.0.0.1:0: \(String(cString: strerror(errno)))") }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return UInt16(bigEndian: actual.sin_port)
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port` right now.
    package static func accepts(_ port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var target = address(port)
        return withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// A long-running server process listening on a free port of 127.0.0.1 (e.g. `openssl s_server`,
/// `gnutls-serv`), polled until it accepts connections and always stopped (``stop()``, or when released).
///
/// It runs under `timeout -k 2 LIFETIME` so it never outlives a crashed test run by more than `lifetime` seconds,
/// with standard input and output at /dev/null and every signal at its default action.
package final class LoopbackServer: Sendable {
    /// The port it listens on.
    package let port: UInt16
    /// The server (the `timeout` wrapper, which forwards SIGTERM to it).
    package let process: RunningProcess

    /// Starts `command(port)` on `port`, or on a port that was free a moment ago, and waits (at most 15 s) until
    /// `isReady(port)` (by default: it accepts connections on 127.0.0.1); when it exits first or is never ready,
    /// tries again (on another port unless `port` is given), `attempts` times in all. `name` names the server in
    /// errors.
    package init(
        _ name: String, port: UInt16? = nil, attempts: Int = 3, lifetime: Int = 300,
        isReady: (_ port: UInt16) -> Bool = LoopbackPort.accepts, command: (_ port: UInt16) throws -> [String]
    ) throws {
        var lastError: any Error = ProcessError("\(name) did not start")
        for _ in 0..<attempts {
            let port = try port ?? LoopbackPort.free()
            let process = try RunningProcess(
                ["timeout", "-k", "2", "\(lifetime)"] + command(port), output: .discard, defaultSignalActions: true)
            do {
                try Self.waitUntilReady(process, port: port, name: name, isReady: isReady)
                self.port = port
                self.process = process
                return
            } catch {
                process.stop()
                lastError = error
            }
        }
        throw lastError
    }

    deinit { stop() }

    /// Stops the server now: SIGTERM, up to 3 seconds, then SIGKILL.
    package func stop() { process.stop() }

    private static func waitUntilReady(
        _ process: RunningProcess, port: UInt16, name: String, isReady: (UInt16) -> Bool
    ) throws {
        for _ in 0..<300 {
            guard process.isRunning else { throw ProcessError("\(name) exited early") }
            if isReady(port) { return }
            usleep(50_000)
        }
        throw ProcessError("\(name) did not accept on 127.0.0.1:\(port) within 15 s")
    }
}
