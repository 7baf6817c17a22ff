import CertKit
import Foundation

/// Reads an input named on the command line: a path, or `-` for standard input.
struct InputReader {
    /// The largest input certkit reads (certificate files are kilobytes; the system bundle is ~200 KB):
    /// ``Limits/maxInputBytes``.
    static let sizeLimit = Limits.default.maxInputBytes

    /// How standard input is named in messages.
    static let standardInputName = "<stdin>"

    let stdin: any ByteSource

    /// The name used for `argument` in messages.
    static func displayName(_ argument: String) -> String {
        argument == "-" ? standardInputName : argument
    }

    /// Reads all of `argument`.
    /// - Throws: ``CLIError/input(file:problem:)`` when the path is missing, a directory, unreadable or too large.
    func read(_ argument: String) throws(CLIError) -> [UInt8] {
        if argument == "-" {
            let bytes: [UInt8]
            do {
                bytes = try stdin.readAll(limit: Self.sizeLimit)
            } catch {
                throw .input(file: Self.standardInputName, problem: "cannot read: \(error.localizedDescription)")
            }
            guard bytes.count <= Self.sizeLimit else {
                throw .input(file: Self.standardInputName, problem: Self.tooLargeProblem)
            }
            return bytes
        }
        return try readFile(argument)
    }

    private static var tooLargeProblem: String {
        "input too large (more than \(sizeLimit >> 20) MiB); not a certificate file"
    }

    private func readFile(_ path: String) throws(CLIError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .input(file: path, problem: "no such file")
        }
        if isDirectory.boolValue {
            throw .input(file: path, problem: "is a directory, not a file")
        }
        guard FileManager.default.isReadableFile(atPath: path), let handle = FileHandle(forReadingAtPath: path) else {
            throw .input(file: path, problem: "permission denied")
        }
        defer { try? handle.close() }
        do {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            if size > Self.sizeLimit { throw CLIError.input(file: path, problem: Self.tooLargeProblem) }
            let bytes = try FileHandleSource(handle).readAll(limit: Self.sizeLimit)
            guard bytes.count <= Self.sizeLimit else { throw CLIError.input(file: path, problem: Self.tooLargeProblem) }
            return bytes
        } catch let error as CLIError {
            throw error
        } catch {
            throw .input(file: path, problem: "cannot read: \(error.localizedDescription)")
        }
    }
}
