import CertKit
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

/// The test support library itself (Tests/Support): what the other tests rely on it for.
@Suite("Test support library")
struct TestSupportTests {
    @Test("ProcessRunner: standard input in, standard output and error apart, the exit status")
    func runCapturesStreams() throws {
        let result = try ProcessRunner.run(
            ["/bin/sh", "-c", "cat; echo oops >&2; exit 3"], input: .bytes(Array("hello".utf8)))
        #expect(result.stdoutText == "hello")
        #expect(result.stderrText == "oops\n")
        #expect(result.status == 3 && result.signal == nil && !result.timedOut)
        let merged = try ProcessRunner.run(["/bin/sh", "-c", "echo one; echo two >&2"], output: .merged)
        #expect(merged.stdoutText == "one\ntwo\n" && merged.stderr.isEmpty)
    }

    @Test("ProcessRunner: a process that outruns its timeout is killed and says so")
    func runTimesOut() throws {
        let start = Date()
        let result = try ProcessRunner.run(["sleep", "30"], timeout: 0.5)
        #expect(result.timedOut && result.signal == SIGKILL && result.status == SIGKILL)
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(throws: ProcessError.self) { try ProcessRunner.check(["/bin/sh", "-c", "exit 1"]) }
    }

    @Test("LoopbackServer: openssl s_server accepts on 127.0.0.1 until stopped")
    func serverStartsAndStops() throws {
        let server = try LoopbackServer("openssl s_server") { port in
            [
                "openssl", "s_server", "-accept", "127.0.0.1:\(port)", "-cert", FixtureLocator.sample("server.pem"),
                "-key", FixtureLocator.sample("server.key"), "-www", "-quiet",
            ]
        }
        #expect(LoopbackPort.accepts(server.port))
        server.stop()
        #expect(!server.process.isRunning)
        #expect(!LoopbackPort.accepts(server.port))
    }

    @Test("TemporaryDirectory: removed by remove() and on release")
    func temporaryDirectoryIsRemoved() throws {
        var directory: TemporaryDirectory? = try TemporaryDirectory()
        let path = try #require(directory).path
        try #require(directory).write("file", [1, 2, 3])
        #expect(try #require(directory).contents() == ["file"])
        directory = nil
        #expect(!FileManager.default.fileExists(atPath: path))
        let explicit = try TemporaryDirectory()
        explicit.remove()
        #expect(!FileManager.default.fileExists(atPath: explicit.path))
    }

    @Test("ForwardingBackend: forwards to the real backend, answers with an override, counts every call")
    func forwardingBackend() throws {
        let real = OpenSSLBackend()
        let fact = LibraryFact(.unknown, words: "overridden")
        let backend = ForwardingBackend(
            real, name: "double", overrides: .init(libraryVerdict: { _, _, _, _, _ in [fact] }))
        #expect(backend.name == "double")
        let bytes = Array("certkit".utf8)
        #expect(try backend.digest(.sha256, of: bytes) == real.digest(.sha256, of: bytes))
        let root = try #require(try ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem").first)
        let store = try backend.prepareAnchors([root])
        let verdict = try backend.libraryVerdict(
            on: CandidatePath(certificates: [root], endsAtAnchor: true), anchors: store, at: ConcurrencyFixtures.verifyDate,
            crls: [])
        #expect(verdict == [fact])
        #expect(backend.calls(to: .digest) == 1 && backend.calls(to: .prepareAnchors) == 1)
        #expect(backend.calls(to: .libraryVerdict) == 1 && backend.calls(to: .verifySignature) == 0)
    }

    @Test("FixtureLocator and TestPKI: fixtures found, a certificate made and parsed")
    func locatorAndPKI() throws {
        #expect(FileManager.default.fileExists(atPath: FixtureLocator.scenario("valid-chain-rsa/chain.pem")))
        #expect(FileManager.default.fileExists(atPath: FixtureLocator.sample("root-ca.pem")))
        let pki = try TestPKI()
        try pki.selfSigned("ca", subject: "/CN=Support Test CA", extensions: ["basicConstraints=critical,CA:TRUE"])
        let certificate = try #require(try pki.certificates("ca.pem").first)
        #expect(certificate.subject.description == "CN=Support Test CA")
        #expect(certificate.isSelfSigned)
    }
}
