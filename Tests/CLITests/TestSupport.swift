import CertKit
@testable import CertKitCLI
import CertKitTestSupport
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

/// The certificates of a Samples file.
func sampleCertificates(_ name: String) throws -> [Certificate] {
    try CertificateBundle.decode(try FixtureLocator.bytes(FixtureLocator.sample(name))).certificates
}

/// A pretty `evaluate --json` document without its `anchorSources` and `hostSource` members (which only a command
/// knows), to compare with a report rendered by the library's path; nil when `anchorSources` is missing.
func withoutAnchorSources(_ document: String) -> String? {
    guard let range = document.range(
        of: #"  "anchorSources": \[\n(?:    .*\n)*  \],\n"#, options: .regularExpression)
    else { return nil }
    let stripped = document.replacingCharacters(in: range, with: "")
    guard let host = stripped.range(of: #"  "hostSource": "[^"\n]*",\n"#, options: .regularExpression) else { return stripped }
    return stripped.replacingCharacters(in: host, with: "")
}
