import CertKit
import Foundation

/// Writes output files so that a reader never sees a partial file: each file goes to a temporary file in the
/// same directory and is renamed over the target only when every file of the command has been written.
/// If anything fails, the temporary files (and any target already renamed in this commit) are removed.
final class AtomicFileWriter {
    private struct Staged {
        let temporary: String
        let target: String
    }

    private var staged: [Staged] = []

    /// Stages `bytes` for `target`.
    /// - Throws: ``CLIError/output(file:problem:)`` when the directory is missing or not writable.
    /// - Parameter permissions: when given, the file is created with exactly these permissions (e.g. `0o600` for a
    ///   private key) before any byte is written, so it is never readable by others, even for a moment.
    func stage(_ bytes: [UInt8], to target: String, permissions: mode_t? = nil) throws(CLIError) {
        let temporary = try temporaryPath(for: target)
        if let permissions {
            let failure = bytes.withUnsafeBytes { bytes -> CLIError? in
                do throws(CLIError) {
                    try Self.writeNew(bytes, to: temporary, permissions: permissions, target: target)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
            staged.append(Staged(temporary: temporary, target: target))
            return
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: temporary), options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .output(file: target, problem: "cannot write: \(Self.reason(error))")
        }
        staged.append(Staged(temporary: temporary, target: target))
    }

    /// Stages key material for `target`, written with `write(2)` straight from the secret buffer (no copy) to a
    /// file created with `permissions`.
    func stage(_ secret: SecretBytes, to target: String, permissions: mode_t) throws(CLIError) {
        let temporary = try temporaryPath(for: target)
        try secret.withUnsafeBytes { bytes throws(CLIError) in
            try Self.writeNew(bytes, to: temporary, permissions: permissions, target: target)
        }
        staged.append(Staged(temporary: temporary, target: target))
    }

    /// A temporary file name next to `target`, after checking that its directory exists.
    private func temporaryPath(for target: String) throws(CLIError) -> String {
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .output(file: target, problem: "is a directory; cannot write output there")
        }
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .output(file: target, problem: "cannot write: directory \(directory) does not exist")
        }
        return url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).certkit-\(UUID().uuidString).tmp").path
    }

    /// Renames every staged file over its target. On failure removes what this commit wrote and throws.
    func commit() throws(CLIError) {
        var renamed: [String] = []
        for (position, file) in staged.enumerated() {
            guard rename(file.temporary, file.target) == 0 else {
                let problem = String(cString: strerror(errno))
                for later in staged[position...] { try? FileManager.default.removeItem(atPath: later.temporary) }
                for target in renamed { try? FileManager.default.removeItem(atPath: target) }
                staged = []
                throw .output(file: file.target, problem: "cannot write: \(problem)")
            }
            renamed.append(file.target)
        }
        staged = []
    }

    /// Removes every staged temporary file.
    func discard() {
        for file in staged { try? FileManager.default.removeItem(atPath: file.temporary) }
        staged = []
    }

    deinit { discard() }

    /// Creates `path` (which must not exist) with `permissions` and writes `bytes` to it.
    private static func writeNew(_ bytes: UnsafeRawBufferPointer, to path: String, permissions: mode_t, target: String)
        throws(CLIError)
    {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else {
            throw .output(file: target, problem: "cannot write: \(String(cString: strerror(errno)))")
        }
        var failure: String?
        if fchmod(descriptor, permissions) != 0 { failure = String(cString: strerror(errno)) }
        var offset = 0
        while failure == nil, offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
            } else {
                offset += written
            }
        }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(path)
            throw .output(file: target, problem: "cannot write: \(failure)")
        }
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
