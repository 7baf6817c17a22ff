import CertKit
import Foundation

extension InputReader {
    /// Reads all of `argument` (a path or `-`) into ``SecretBytes``, for key files and password files. A file is
    /// read with `read(2)` straight into the zeroed-on-release buffer (its size from `fstat`), so no Swift array or
    /// `Data` copy of it exists. Standard input comes through the byte source's arrays; certkit zeroes the one it
    /// ends up with, not the chunks the source read.
    /// - Throws: ``CLIError/input(file:problem:)`` as ``read(_:)`` does.
    func readSecret(_ argument: String) throws(CLIError) -> SecretBytes {
        if argument == "-" {
            var bytes = try read(argument)
            defer { bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } } }
            return SecretBytes(copying: bytes)
        }
        let descriptor = open(argument, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let problem = errno == ENOENT ? "no such file" : errno == EACCES ? "permission denied" : Self.systemError()
            throw .input(file: argument, problem: problem)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .input(file: argument, problem: Self.systemError()) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw .input(file: argument, problem: "is a directory, not a file") }
        let size = Int(status.st_size)
        guard size <= Self.sizeLimit else {
            throw .input(file: argument, problem: "input too large (more than \(Self.sizeLimit >> 20) MiB); not a key file")
        }
        var filled = 0
        let secret = try SecretBytes(count: size) { buffer throws(CLIError) in
            while filled < size {
                let count = Glibc.read(descriptor, buffer.baseAddress! + filled, size - filled)
                if count > 0 {
                    filled += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    throw .input(file: argument, problem: "cannot read: \(Self.systemError())")
                }
            }
        }
        // A file that shrank while it was read: keep what was read.
        return filled == size ? secret : secret.withUnsafeBytes { SecretBytes(copying: $0.prefix(filled)) }
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}
