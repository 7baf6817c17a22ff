import CertKit
@testable import CertKitCLI
import Foundation
import Testing

/// The outcome of one `certkit` run driven through the library entry point.
struct RunResult {
    var code: Int32
    var stdout: [UInt8]
    var stderr: String

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// Runs `certkit` in-process with in-memory streams.
func certkit(_ arguments: [String], stdin: [UInt8] = []) -> RunResult {
    let out = MemorySink()
    let err = MemorySink()
    let code = CertKitCommand.run(arguments: arguments, stdin: MemorySource(stdin), stdout: out, stderr: err)
    return RunResult(code: code, stdout: out.bytes, stderr: err.text)
}

/// Paths inside the package.
enum Paths {
    /// The package root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func sample(_ name: String) -> String { root.appendingPathComponent("Samples/\(name)").path }
    static func badInput(_ name: String) -> String { root.appendingPathComponent("Tests/Fixtures/bad-input/\(name)").path }
    static var badInputDirectory: String { root.appendingPathComponent("Tests/Fixtures/bad-input").path }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
}

/// A fresh temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("certkit-cli-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { URL(fileURLWithPath: path).appendingPathComponent(name).path }

    /// Names in the directory, hidden files included, sorted.
    func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }
}

/// The certificates of a Samples file.
func sampleCertificates(_ name: String) throws -> [Certificate] {
    try CertificateBundle.decode(try Paths.bytes(Paths.sample(name))).certificates
}
