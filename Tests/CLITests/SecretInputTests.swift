import CertKit
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// Key and password files read straight into SecretBytes: the same bytes as an ordinary read, the same one-line
/// errors.
struct SecretInputTests {
    private let reader = InputReader(stdin: MemorySource(Array("from stdin\n".utf8)))

    @Test("a file, standard input and the errors of an ordinary read")
    func readSecret() throws {
        let key = IdentityPaths.fixture("client.key")
        #expect(try reader.readSecret(key).withUnsafeBytes { Array($0) } == FixtureLocator.bytes(key))
        #expect(try reader.readSecret("-").withUnsafeBytes { Array($0) } == Array("from stdin\n".utf8))
        let directory = try TemporaryDirectory()
        let empty = directory.file("empty")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(try reader.readSecret(empty).isEmpty)
        #expect(throws: CLIError.input(file: directory.file("none"), problem: "no such file")) {
            try reader.readSecret(directory.file("none"))
        }
        #expect(throws: CLIError.input(file: directory.path, problem: "is a directory, not a file")) {
            try reader.readSecret(directory.path)
        }
    }

    @Test("a pipe (--password-file <(command)): read to its end, across several buffers")
    func pipe() throws {
        let pipe = Pipe()
        let contents = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        try pipe.fileHandleForWriting.write(contentsOf: Data(contents))
        try pipe.fileHandleForWriting.close()
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        #expect(try reader.readSecret(path).withUnsafeBytes { Array($0) } == contents)
    }
}
