import CertKit
import CertKitBackends
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

@Suite("convert")
struct ConvertTests {
    static let singles = ["root-ca.pem", "intermediate-ca.pem", "server.pem", "self-signed.pem", "expired.pem", "wrong-host.pem"]

    @Test("PEM → DER → PEM is byte-identical to a strict re-encode", arguments: singles)
    func roundTrip(name: String) throws {
        let original = try FixtureLocator.bytes(FixtureLocator.sample(name))
        let der = try sampleCertificates(name)[0].derEncoded
        let toDER = certkit(["convert", FixtureLocator.sample(name)])
        #expect(toDER.code == 0 && toDER.stderr.isEmpty)
        #expect(toDER.stdout == der)
        let toPEM = certkit(["convert", "-"], stdin: toDER.stdout)
        #expect(toPEM.code == 0 && toPEM.stderr.isEmpty)
        #expect(toPEM.stdoutText == PEM.encode(der))
        // The Samples are written by openssl, which writes strict RFC 7468 PEM too.
        #expect(toPEM.stdout == original)
    }

    @Test("every backend produces identical bytes")
    func backendsAgree() throws {
        for arguments in [["--to", "der", FixtureLocator.sample("server.pem")], ["--to", "pem", FixtureLocator.sample("bundle.pem")]] {
            let results = BackendRegistry.standard.names.map { certkit(["convert", "--backend", $0] + arguments) }
            #expect(results.allSatisfy { $0.code == 0 })
            #expect(results.allSatisfy { $0.stdout == results[0].stdout })
        }
        #expect(certkit(["convert", "--backend", "nope", FixtureLocator.sample("server.pem")]).code == 2)
    }

    @Test("a bundle to DER without --out-dir is a usage error and writes nothing")
    func bundleToDERNeedsDirectory() throws {
        let directory = try TemporaryDirectory()
        let target = directory.file("bundle.der")
        let result = certkit(["convert", "--to", "der", "--out", target, FixtureLocator.sample("bundle.pem")])
        #expect(result.code == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("--out-dir"))
        #expect(try directory.contents().isEmpty)
        #expect(certkit(["convert", FixtureLocator.sample("server-chain.pem")]).code == 2)
    }

    @Test("--out-dir names files by position and CN")
    func outDirectoryNaming() throws {
        let directory = try TemporaryDirectory()
        let result = certkit(["convert", "--out-dir", directory.path, FixtureLocator.sample("bundle.pem")])
        #expect(result.code == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
        let names = ["01-certkit_Demo_Root_CA.der", "02-certkit_Demo_Intermediate_CA.der", "03-localhost.der"]
        #expect(try directory.contents() == names)
        let certificates = try sampleCertificates("bundle.pem")
        for (name, certificate) in zip(names, certificates) {
            #expect(try FixtureLocator.bytes(directory.file(name)) == certificate.derEncoded)
        }

        let pemDirectory = try TemporaryDirectory()
        #expect(certkit(["convert", "--to", "pem", "--out-dir", pemDirectory.path, FixtureLocator.sample("server-chain.pem")]).code == 0)
        #expect(try pemDirectory.contents() == ["01-localhost.pem", "02-certkit_Demo_Intermediate_CA.pem"])
    }

    @Test("a bundle to PEM concatenates strict blocks and drops text between them")
    func bundleToPEM() throws {
        let directory = try TemporaryDirectory()
        let target = directory.file("clean.pem")
        let result = certkit(["convert", "--to", "pem", "--out", target, FixtureLocator.sample("bundle.pem")])
        #expect(result.code == 0)
        let expected = try sampleCertificates("bundle.pem").map { PEM.encode($0.derEncoded) }.joined()
        #expect(String(decoding: try FixtureLocator.bytes(target), as: UTF8.self) == expected)
        #expect(try directory.contents() == ["clean.pem"])
    }

    @Test("several inputs are concatenated in order")
    func severalInputs() throws {
        let result = certkit(["convert", "--to", "pem", FixtureLocator.sample("root-ca.pem"), "--", FixtureLocator.sample("server.pem")])
        #expect(result.code == 0)
        let expected = try (sampleCertificates("root-ca.pem") + sampleCertificates("server.pem"))
            .map { PEM.encode($0.derEncoded) }.joined()
        #expect(result.stdoutText == expected)
    }

    @Test("an existing --out file is replaced")
    func replacesExistingFile() throws {
        let directory = try TemporaryDirectory()
        let target = try directory.write("out.der", Array("old".utf8))
        #expect(certkit(["convert", "--out", target, FixtureLocator.sample("server.pem")]).code == 0)
        #expect(try FixtureLocator.bytes(target) == sampleCertificates("server.pem")[0].derEncoded)
        #expect(try directory.contents() == ["out.der"])
    }

    @Test("a failure while writing several files leaves nothing behind")
    func failedWriteLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        // The third target exists as a directory, so it cannot be written after two files were staged.
        let blocker = directory.file("03-localhost.der")
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)
        try Data([1]).write(to: URL(fileURLWithPath: blocker + "/keep"))
        let result = certkit(["convert", "--out-dir", directory.path, FixtureLocator.sample("bundle.pem")])
        #expect(result.code == 1)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("certkit: \(blocker): "))
        #expect(try directory.contents() == ["03-localhost.der"])
    }

    @Test("output into a missing directory is an error that leaves nothing")
    func missingOutputDirectory() throws {
        let directory = try TemporaryDirectory()
        let target = directory.file("missing/out.der")
        let result = certkit(["convert", "--out", target, FixtureLocator.sample("server.pem")])
        #expect(result.code == 1)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("certkit: \(target): "))
        #expect(try directory.contents().isEmpty)
        #expect(certkit(["convert", "--out-dir", directory.file("nope"), FixtureLocator.sample("bundle.pem")]).code == 1)
    }

    @Test("usage errors", arguments: [
        ["convert", "--to", "xml", "x.pem"],
        ["convert", "--out", "a", "--out-dir", "b", "x.pem"],
        ["convert", "--out"],
        ["convert", "--frobnicate"],
        ["convert", "--to", "der", "--to", "pem"],
        ["convert", "-", "-"],
    ])
    func usageErrors(arguments: [String]) {
        let result = certkit(arguments)
        #expect(result.code == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("certkit: ") && result.stderr.contains("certkit convert --help"))
    }

    @Test("OpenSSL TRUSTED CERTIFICATE input converts, with a warning that the trust settings were dropped")
    func trustedCertificate() throws {
        let directory = try TemporaryDirectory()
        let input = directory.file("trusted.pem")
        let openssl = try ProcessRunner.run(
            ["/usr/bin/openssl", "x509", "-in", FixtureLocator.sample("root-ca.pem"), "-trustout", "-addtrust", "serverAuth",
             "-out", input])
        #expect(openssl.status == 0)
        let result = certkit(["convert", input])
        #expect(result.code == 0)
        #expect(result.stdout == (try sampleCertificates("root-ca.pem"))[0].derEncoded)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("certkit: \(input): warning: "))
    }

    @Test("file names keep [A-Za-z0-9._-] only")
    func sanitize() {
        #expect(OutputNaming.sanitize("leaf.example") == "leaf.example")
        #expect(OutputNaming.sanitize("My Root CA") == "My_Root_CA")
        #expect(OutputNaming.sanitize("../../etc/passwd") == "etc_passwd")
        #expect(OutputNaming.sanitize("*.example.com") == "example.com")
        #expect(OutputNaming.sanitize("Ünïcødé/名前") == "n_c_d")
        #expect(OutputNaming.sanitize("///") == nil)
        #expect(OutputNaming.sanitize(String(repeating: "a", count: 200))?.count == OutputNaming.maximumNameLength)
    }
}
