import CertKit
import Foundation

extension InputReader {
    /// Reads all of `argument` (a path or `-`) into ``SecretBytes``, for key files and password files. A file is
    /// read with `read(2)` straight into the zeroed-on-release buffer (its size from `fstat`; a pipe such as
    /// `<(pass show key)` in growing secret buffers), so no Swift array or `Data` copy of it exists. Standard input
    /// comes through the byte source's arrays; certkit zeroes the one it ends up with, not the chunks the source
    /// read.
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
        guard status.st_mode & S_IFMT == S_IFREG else { return try Self.readStream(descriptor, name: argument) }
        let size = Int(status.st_size)
        guard size <= Self.sizeLimit else { throw .input(file: argument, problem: Self.secretTooLarge) }
        var filled = 0
        let secret = try SecretBytes(count: size) { buffer throws(CLIError) in
            filled = try Self.readFully(descriptor, into: buffer, name: argument)
        }
        // A file that shrank while it was read: keep what was read.
        return filled == size ? secret : secret.withUnsafeBytes { SecretBytes(copying: $0.prefix(filled)) }
    }

    /// Reads a pipe or device to its end in secret buffers that double in size (linear work), at most
    /// ``sizeLimit`` bytes.
    private static func readStream(_ descriptor: Int32, name: String) throws(CLIError) -> SecretBytes {
        var result = SecretBytes(copying: [])
        while true {
            var count = 0
            let chunk = try SecretBytes(count: max(4096, result.count)) { buffer throws(CLIError) in
                count = try readFully(descriptor, into: buffer, name: name)
            }
            if count > 0 { result = result.appending(chunk.withUnsafeBytes { SecretBytes(copying: $0.prefix(count)) }) }
            guard result.count <= sizeLimit else { throw .input(file: name, problem: secretTooLarge) }
            if count < chunk.count { return result }
        }
    }

    /// Fills `buffer` from `descriptor` until it is full or the input ends; returns how many bytes it read.
    private static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, name: String)
        throws(CLIError) -> Int
    {
        var filled = 0
        while filled < buffer.count {
            let count = Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            if count > 0 {
                filled += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw .input(file: name, problem: "cannot read: \(systemError())")
            }
        }
        return filled
    }

    private static var secretTooLarge: String { "input too large (more than \(sizeLimit >> 20) MiB); not a key file" }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}
