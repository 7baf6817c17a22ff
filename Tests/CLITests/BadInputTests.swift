import CertKit
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// The bad-input table: every file under Tests/Fixtures/bad-input (the bad-input fixture set,
/// Scripts/fixtures/certkit_fixtures/sets/bad_input.py) plus the inputs made at test time. Each gets its documented
/// exit code and exactly one stderr line naming the file, and leaves nothing behind in the output directory.
@Suite("Bad input")
struct BadInputTests {
    /// Committed files and their expected exit code: 1 (input error), or 0 where a certificate is still found.
    static let table: [(file: String, code: Int32)] = [
        ("empty.pem", 1),
        ("whitespace-only.pem", 1),
        ("truncated-1.der", 1),
        ("truncated-2.der", 1),
        ("truncated-4.der", 1),
        ("truncated-100.der", 1),
        ("truncated-423.der", 1),
        ("truncated-845.der", 1),
        ("trailing-bytes.der", 1),
        ("wrong-outer-tag.der", 1),
        ("indefinite-length.der", 1),
        ("overlong-length.der", 1),
        ("huge-length.der", 1),
        ("private-key.der", 1),
        ("zeros.bin", 1),
        ("binary-noise.bin", 1),
        ("bad-base64.pem", 1),
        ("missing-end.pem", 1),
        ("mismatched-labels.pem", 1),
        ("truncated-base64.pem", 1),
        ("garbage-in-certificate-block.pem", 1),
        ("private-key-only.pem", 1),
        ("certificate-request.pem", 1),
        ("plain-text.txt", 1),
    ]

    @Test("the table covers every committed file")
    func tableIsComplete() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: FixtureLocator.fixture("bad-input"))
            .filter { !$0.hasPrefix(".") && $0 != "README.md" && $0 != "key-and-certificate.pem" }
        #expect(Set(files) == Set(Self.table.map(\.file)))
        #expect(Self.table.count + 1 >= 20)
    }

    @Test("convert: exit code, one line naming the file, nothing left behind", arguments: table)
    func convert(file: String, code: Int32) throws {
        let path = FixtureLocator.fixture("bad-input/\(file)")
        for format in ["der", "pem"] {
            let directory = try TemporaryDirectory()
            let target = directory.file("out.\(format)")
            let result = certkit(["convert", "--to", format, "--out", target, path])
            #expect(result.code == code, "\(file) → \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(file): \(result.stderr)")
            #expect(result.stderr.hasPrefix("certkit: \(path): "))
            #expect(result.stdout.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: target))
            #expect(try directory.contents().isEmpty)
        }
    }

    @Test("inspect and evaluate report the same one-line error", arguments: table)
    func inspectAndEvaluate(file: String, code: Int32) {
        let path = FixtureLocator.fixture("bad-input/\(file)")
        let inspect = certkit(["inspect", path])
        #expect(inspect.code == code)
        #expect(inspect.stderrLines.count == 1 && inspect.stderr.hasPrefix("certkit: \(path): "))
        let evaluate = certkit(["evaluate", "--json", "--anchors", FixtureLocator.sample("root-ca.pem"), path])
        #expect(evaluate.code == code)
        #expect(evaluate.stderrLines.count == 1 && evaluate.stderr.hasPrefix("certkit: \(path): "))
        #expect(evaluate.stdout.isEmpty, "no JSON for input errors")
    }

    @Test("a file with only a private key says what it found")
    func privateKeyOnly() {
        let result = certkit(["convert", FixtureLocator.fixture("bad-input/private-key-only.pem")])
        #expect(result.code == 1)
        #expect(result.stderr.contains("PRIVATE KEY"))
    }

    @Test("key + certificate: the certificate is converted, the key never written, a warning names it")
    func keyAndCertificate() throws {
        let path = FixtureLocator.fixture("bad-input/key-and-certificate.pem")
        let certificate = try CertificateBundle.decode(try FixtureLocator.bytes(path)).certificates
        #expect(certificate.count == 1)
        let toDER = certkit(["convert", path])
        #expect(toDER.code == 0)
        #expect(toDER.stdout == certificate[0].derEncoded)
        #expect(toDER.stderrLines == ["certkit: \(path): warning: skipped PRIVATE KEY block"])

        let directory = try TemporaryDirectory()
        let target = directory.file("cert.pem")
        let toPEM = certkit(["convert", "--to", "pem", "--out", target, path])
        #expect(toPEM.code == 0)
        let written = String(decoding: try FixtureLocator.bytes(target), as: UTF8.self)
        #expect(written == PEM.encode(certificate[0].derEncoded))
        #expect(!written.contains("PRIVATE KEY"))
        #expect(try directory.contents() == ["cert.pem"])
    }

    @Test("empty standard input is an input error naming <stdin>")
    func emptyStandardInput() {
        let result = certkit(["convert", "-"], stdin: [])
        #expect(result.code == 1)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("certkit: <stdin>: "))
    }

    @Test("a 50 MB random file is refused without output")
    func fiftyMegabytes() throws {
        let directory = try TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 50 << 20)
        bytes.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = generator.next() }
        }
        let path = try directory.write("random.bin", bytes)
        let target = directory.file("out.der")
        let result = certkit(["convert", "--out", target, path])
        #expect(result.code == 1)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("certkit: \(path): "))
        #expect(try directory.contents() == ["random.bin"])
        let inspect = certkit(["inspect", path])
        #expect(inspect.code == 1 && inspect.stderrLines.count == 1)
    }

    @Test("a directory is an input error")
    func directory() throws {
        let directory = try TemporaryDirectory()
        let input = directory.file("a-directory")
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: false)
        let target = directory.file("out.der")
        let result = certkit(["convert", "--out", target, input])
        #expect(result.code == 1)
        #expect(result.stderrLines == ["certkit: \(input): is a directory, not a file"])
        #expect(try directory.contents() == ["a-directory"])
    }

    @Test("a missing path is an input error")
    func missing() throws {
        let directory = try TemporaryDirectory()
        let input = directory.file("does-not-exist.pem")
        let result = certkit(["convert", "--out", directory.file("out.der"), input])
        #expect(result.code == 1)
        #expect(result.stderrLines == ["certkit: \(input): no such file"])
        #expect(try directory.contents().isEmpty)
        #expect(certkit(["inspect", input]).code == 1)
        #expect(certkit(["evaluate", "--anchors", input, FixtureLocator.sample("server.pem")]).stderrLines
            == ["certkit: \(input): no such file"])
    }

    /// chmod 000 stops other users, not root (CI runs as root): when the file stays readable, assert the honest
    /// root behaviour (it converts) instead of pretending.
    @Test("an unreadable file is an input error (or, as root, readable after all)")
    func unreadable() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write("locked.pem", try FixtureLocator.bytes(FixtureLocator.sample("server.pem")))
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: input)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: input) }
        let target = directory.file("out.der")
        let result = certkit(["convert", "--out", target, input])
        if FileManager.default.isReadableFile(atPath: input) {
            #expect(getuid() == 0, "only root reads a mode-000 file")
            #expect(result.code == 0)
            #expect(FileManager.default.fileExists(atPath: target))
        } else {
            #expect(result.code == 1)
            #expect(result.stderrLines == ["certkit: \(input): permission denied"])
            #expect(try directory.contents() == ["locked.pem"])
        }
    }
}
