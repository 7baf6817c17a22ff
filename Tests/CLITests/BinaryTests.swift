import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// A handful of checks on the built `certkit` executable: real process, real exit codes and streams.
@Suite("the certkit binary")
struct BinaryTests {
    /// The built `certkit` executable (``FixtureLocator/product(_:)``).
    static var executable: String? { FixtureLocator.product("certkit") }

    struct Outcome {
        var code: Int32
        var stdout: [UInt8]
        var stderr: String
    }

    static func run(_ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:]) throws -> Outcome {
        let executable = try #require(executable, "build the certkit product first")
        let result = try ProcessRunner.run([executable] + arguments, input: .bytes(stdin), environment: environment)
        return Outcome(code: result.status, stdout: result.stdout, stderr: result.stderrText)
    }

    @Test("--version and --help exit 0")
    func version() throws {
        let version = try Self.run(["--version"])
        #expect(version.code == 0 && String(decoding: version.stdout, as: UTF8.self).hasPrefix("certkit "))
        #expect(try Self.run(["inspect", "--help"]).code == 0)
    }

    @Test("a usage error exits 2 with one stderr line")
    func usage() throws {
        let result = try Self.run(["convert", "--nope"])
        #expect(result.code == 2)
        #expect(result.stderr == "certkit: unknown option '--nope' (see 'certkit convert --help')\n")
    }

    @Test("a missing file exits 1 naming it")
    func missing() throws {
        let result = try Self.run(["inspect", "/nonexistent/cert.pem"])
        #expect(result.code == 1)
        #expect(result.stderr == "certkit: /nonexistent/cert.pem: no such file\n")
    }

    @Test("convert through pipes: PEM on stdin, DER on stdout")
    func convertPipe() throws {
        let result = try Self.run(["convert", "-"], stdin: try FixtureLocator.bytes(FixtureLocator.sample("server.pem")))
        #expect(result.code == 0 && result.stderr.isEmpty)
        #expect(result.stdout == (try sampleCertificates("server.pem"))[0].derEncoded)
        #expect(try Self.run(["convert", FixtureLocator.sample("bundle.pem")]).code == 2)
    }

    @Test("evaluate exit codes: trusted 0, expired 10")
    func evaluate() throws {
        let common = ["evaluate", "--anchors", FixtureLocator.sample("root-ca.pem"), "--at", "2030-06-01", "--host", "localhost"]
        #expect(try Self.run(common + [FixtureLocator.sample("server-chain.pem")]).code == 0)
        #expect(try Self.run(common + ["--intermediates", FixtureLocator.sample("intermediate-ca.pem"), FixtureLocator.sample("expired.pem")]).code == 10)
    }
}
