import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The trust store's file operations: an exclusive `flock(2)` lock that serializes writers across processes and
/// threads, whole-file reads, and atomic replacement (a temporary file in the same directory, `fsync`, then
/// `rename(2)` over the target). This is the one file of the core that calls the C library directly.
enum TrustStoreFiles {
    /// The suffix of temporary files; a writer holding the lock removes any it finds (left by a writer that died).
    static let temporarySuffix = ".certkit-tmp"

    /// An open descriptor holding an exclusive `flock` on a lock file; unlocks and closes in `deinit`.
    final class Lock {
        private let descriptor: Int32

        /// Locks `path` (created when missing), waiting up to `timeout` for another holder.
        /// - Throws: ``TrustStoreError/Code/unwritable`` when the lock cannot be opened or is not a regular file (a
        ///   FIFO, a directory, a device or a socket in its place is named, never waited on).
        init(path: String, timeout: Duration) throws(TrustStoreError) {
            let descriptor: Int32
            switch TrustStoreFiles.openRegular(path, O_RDWR | O_CREAT, mode: 0o644) {
            case .success(let opened): descriptor = opened
            case .failure(.missing): throw TrustStoreError(.unwritable, file: path, problem: "cannot open the lock: \(String(cString: strerror(ENOENT)))")
            case .failure(.system(let reason)): throw TrustStoreError(.unwritable, file: path, problem: "cannot open the lock: \(reason)")
            case .failure(.notRegular(let kind)):
                throw TrustStoreError(.unwritable, file: path, problem: "cannot open the lock: it is \(kind), not a regular file")
            }
            let deadline = ContinuousClock.now.advanced(by: timeout)
            var delay: UInt32 = 1_000
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let number = errno
                guard number == EWOULDBLOCK || number == EINTR else {
                    close(descriptor)
                    throw TrustStoreError(.unwritable, file: path, problem: "cannot lock: \(String(cString: strerror(number)))")
                }
                guard ContinuousClock.now < deadline else {
                    close(descriptor)
                    throw TrustStoreError(
                        .locked, file: path, problem: "the trust store is locked by another process (waited \(timeout))")
                }
                usleep(delay)
                delay = min(delay * 2, 50_000)
            }
            self.descriptor = descriptor
        }

        deinit {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// The contents of `path`, or nil when it does not exist.
    /// - Throws: ``TrustStoreError/Code/unreadable`` when it cannot be read or is not a regular file (a FIFO, a
    ///   directory, a device or a socket in its place is named, never waited on).
    static func read(_ path: String, limit: Int) throws(TrustStoreError) -> [UInt8]? {
        let descriptor: Int32
        switch openRegular(path, O_RDONLY) {
        case .success(let opened): descriptor = opened
        case .failure(.missing): return nil
        case .failure(.system(let reason)): throw TrustStoreError(.unreadable, file: path, problem: "cannot read: \(reason)")
        case .failure(.notRegular(let kind)):
            throw TrustStoreError(.unreadable, file: path, problem: "cannot read: it is \(kind), not a regular file")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TrustStoreError(.unreadable, file: path, problem: "cannot read: \(lastError())")
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit {
                throw TrustStoreError(.corrupt, file: path, problem: "corrupt trust store: larger than \(limit >> 20) MiB")
            }
        }
    }

    /// Why ``openRegular(_:_:mode:)`` opened nothing.
    enum OpenFailure: Error {
        /// No such file (and not created).
        case missing
        /// The file is not a regular file: `a FIFO`, `a directory`, `a character device`, `a block device`,
        /// `a socket`.
        case notRegular(String)
        /// Another reason, as `strerror` words it.
        case system(String)
    }

    /// Opens `path` with `flags` (plus close-on-exec, no controlling terminal) only if it is a regular file.
    /// The open itself never blocks: `O_NONBLOCK` makes opening a FIFO return at once (without it, opening one for
    /// reading waits for a writer forever), then `fstat` refuses anything that is not a regular file, and the flag
    /// is cleared on the regular file that remains.
    static func openRegular(_ path: String, _ flags: Int32, mode: mode_t = 0) -> Result<Int32, OpenFailure> {
        let descriptor = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let number = errno
            if number == ENOENT { return .failure(.missing) }
            if number == EISDIR { return .failure(.notRegular("a directory")) }
            return .failure(.system(String(cString: strerror(number))))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let number = errno
            close(descriptor)
            return .failure(.system(String(cString: strerror(number))))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return .failure(.notRegular(fileKind(status.st_mode)))
        }
        let current = fcntl(descriptor, F_GETFL)
        if current >= 0 { _ = fcntl(descriptor, F_SETFL, current & ~O_NONBLOCK) }
        return .success(descriptor)
    }

    /// The kind of a file that is not regular, as a noun with its article.
    static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// Replaces `path` with `bytes` atomically: readers see the old file or the new one, never a part. On failure
    /// the temporary file is removed and `path` is unchanged.
    static func replace(_ path: String, with bytes: [UInt8]) throws(TrustStoreError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + "." + UUID().uuidString + temporarySuffix
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TrustStoreError(.unwritable, file: path, problem: "cannot write: \(lastError())")
        }
        func fail(_ number: Int32) -> TrustStoreError {
            close(descriptor)
            unlink(temporary)
            return TrustStoreError(.unwritable, file: path, problem: "cannot write: \(String(cString: strerror(number)))")
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw fail(errno)
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw fail(errno) }
        guard close(descriptor) == 0 else {
            let number = errno
            unlink(temporary)
            throw TrustStoreError(.unwritable, file: path, problem: "cannot write: \(String(cString: strerror(number)))")
        }
        guard rename(temporary, path) == 0 else {
            let number = errno
            unlink(temporary)
            throw TrustStoreError(.unwritable, file: path, problem: "cannot write: \(String(cString: strerror(number)))")
        }
        // Make the rename itself durable.
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Removes temporary files a dead writer left in `directory` for `name` (call with the lock held).
    static func removeStaleTemporaries(in directory: String, for name: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for file in names where file.hasPrefix("." + name + ".") && file.hasSuffix(temporarySuffix) {
            unlink(directory + "/" + file)
        }
    }

    /// Creates `path` and its missing parents (mode 0755).
    static func createDirectory(_ path: String) throws(TrustStoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw TrustStoreError(.unwritable, file: path, problem: "not a directory; cannot hold a trust store")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw TrustStoreError(.unwritable, file: path, problem: "cannot create the trust store directory: \(reason(error))")
        }
    }

    /// `strerror(errno)`.
    static func lastError() -> String { String(cString: strerror(errno)) }

    /// The POSIX reason behind a Foundation file error, else its description.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
