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
    func stage(_ bytes: [UInt8], to target: String) throws(CLIError) {
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .output(file: target, problem: "is a directory; cannot write output there")
        }
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .output(file: target, problem: "cannot write: directory \(directory) does not exist")
        }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).certkit-\(UUID().uuidString).tmp").path
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: temporary), options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .output(file: target, problem: "cannot write: \(Self.reason(error))")
        }
        staged.append(Staged(temporary: temporary, target: target))
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

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
