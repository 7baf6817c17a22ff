import CertKit
import CertKitTestSupport
import Foundation
import Glibc
import Testing

/// The trust store driven through the built `certkit` binary: concurrent processes, a write that fails in the
/// middle, an unreadable file, and the export read by `openssl verify` and `certtool`.
@Suite("trust store: processes", .serialized)
struct TrustStoreProcessTests {
    /// Starts `certkit` with `arguments` without waiting.
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> RunningProcess {
        let executable = try #require(BinaryTests.executable, "build the certkit product first")
        return try RunningProcess([executable] + arguments, environment: environment)
    }

    /// Runs any program and returns its status and output (standard error joined to standard output).
    static func tool(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ProcessRunner.run(["/usr/bin/env"] + arguments, output: .merged)
        return (result.status, result.stdoutText)
    }

    @Test("eight 'certkit trust add' processes at once: nothing is lost")
    func eightConcurrentProcesses() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        // Eight distinct self-signed certificates, one file each.
        let pool = try Fixtures.certificates("distractor-pool/intermediates.pem").filter(\.isSelfSigned)
        let files = try (0..<8).map { index in
            try directory.write("ca-\(index).pem", Array(PEM.encode(pool[index].derEncoded).utf8))
        }
        // A first setting exists, so every process reads, changes and rewrites a real file.
        #expect(try BinaryTests.run(["trust", "add", "--store", store, TrustFixtures.root]).code == 0)
        let processes = try files.map { try Self.start(["trust", "add", "--store", store, $0]) }
        for process in processes {
            let result = process.wait()
            #expect(result.status == 0, "\(result.stdoutText + result.stderrText)")
        }
        let list = try BinaryTests.run(["trust", "list", "--json", "--store", store])
        #expect(list.code == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout)) as? [String: Any])
        let subjects = Set((json["certificates"] as? [[String: Any]] ?? []).compactMap { $0["subject"] as? String })
        #expect(subjects == Set(["CN=Root RSA"] + pool.prefix(8).map(\.subject.description)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).sorted() == ["trust-store.json", "trust-store.lock"])
    }

    /// True when this process (and so the certkit binary next to it) runs under ThreadSanitizer, whose runtime
    /// dies of SIGBUS under a file-size limit below about 500 KB.
    static let underThreadSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

    @Test("a write that fails half way (file size limit) leaves the store as it was and no partial file",
          .disabled(if: underThreadSanitizer, "ThreadSanitizer's runtime cannot run under a small RLIMIT_FSIZE"))
    func failedWriteLeavesStoreWhole() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        #expect(try BinaryTests.run(["trust", "add", "--store", store, TrustFixtures.root]).code == 0)
        let before = try FixtureLocator.bytes(store + "/trust-store.json")
        let executable = try #require(BinaryTests.executable)
        // At most 2 KiB per file (1 KiB under dash): the new file (three certificates, over 4 KiB) cannot be written
        // whole. SIGXFSZ is ignored, so write(2) fails with EFBIG and certkit reports it.
        let run = try Self.tool([
            "sh", "-c", "ulimit -f 2; trap '' XFSZ; exec \"$0\" \"$@\"", executable, "trust", "add", "--store", store,
            TrustFixtures.scenario("valid-chain-rsa/chain.pem"),
        ])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.hasPrefix("certkit: \(store)/trust-store.json: cannot write: File too large"), "\(run.output)")
        #expect(try FixtureLocator.bytes(store + "/trust-store.json") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).sorted() == ["trust-store.json", "trust-store.lock"])
        // The same process killed by SIGXFSZ mid-write: the store is still whole, and the next writer cleans up.
        let killed = try Self.tool([
            "sh", "-c", "ulimit -f 2; exec \"$0\" \"$@\"", executable, "trust", "add", "--store", store,
            TrustFixtures.scenario("valid-chain-rsa/chain.pem"),
        ])
        #expect(killed.status != 0)
        #expect(try FixtureLocator.bytes(store + "/trust-store.json") == before)
        #expect(try BinaryTests.run(["trust", "list", "--store", store]).code == 0)
        #expect(try BinaryTests.run(["trust", "add", "--store", store, TrustFixtures.chain]).code == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).sorted() == ["trust-store.json", "trust-store.lock"])
    }

    @Test("a store file the user cannot read: exit 1, one line naming it",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func permissionDenied() throws {
        // As root, read permission is not enforced: run certkit as nobody against a root-only file.
        let directory = URL(fileURLWithPath: "/tmp/certkit-unreadable-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        #expect(try BinaryTests.run(["trust", "add", "--store", directory, TrustFixtures.root]).code == 0)
        let file = directory + "/trust-store.json"
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let before = try FixtureLocator.bytes(file)
        let executable = try #require(BinaryTests.executable)
        let probe = try Self.tool(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", executable, "--version"])
        try #require(probe.status == 0, "nobody cannot run \(executable): \(probe.output)")
        let run = try Self.tool([
            "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", executable, "trust", "list", "--store", directory,
        ])
        #expect(run.status == 1)
        #expect(run.output == "certkit: \(file): cannot read: Permission denied\n")
        let evaluate = try Self.tool([
            "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", executable, "evaluate", "--trust-store=\(directory)",
            "--at", "2030-06-01T00:00:00Z", TrustFixtures.chain,
        ])
        #expect(evaluate.status == 1)
        #expect(evaluate.output == "certkit: \(file): cannot read: Permission denied\n")
        #expect(try FixtureLocator.bytes(file) == before)
    }

    @Test("export to a directory: a hash-named sub-directory is refused, never deleted; an earlier export's stale file is")
    func exportNeverDeletesADirectory() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        #expect(try BinaryTests.run(["trust", "add", "--store", store, FixtureLocator.sample("root-ca.pem")]).code == 0)
        let capath = directory.file("capath")
        let precious = (capath as NSString).appendingPathComponent("deadbeef.0/precious")
        try FileManager.default.createDirectory(atPath: precious, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: (precious as NSString).appendingPathComponent("data.txt")))
        let refused = try BinaryTests.run(["trust", "export", "--store", store, "--format", "openssl-dir", capath])
        #expect(refused.code == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("deadbeef.0") && refused.stderr.contains("not an earlier export"))
        #expect(FileManager.default.fileExists(atPath: (precious as NSString).appendingPathComponent("data.txt")))
        // A stale regular file of an earlier export is still replaced.
        try FileManager.default.removeItem(atPath: (capath as NSString).appendingPathComponent("deadbeef.0"))
        try Data("old".utf8).write(to: URL(fileURLWithPath: (capath as NSString).appendingPathComponent("deadbeef.0")))
        let exported = try BinaryTests.run(["trust", "export", "--store", store, "--format", "openssl-dir", capath])
        #expect(exported.code == 0, "\(exported.stderr)")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: capath)).contains("deadbeef.0"))
    }

    @Test("export: 'openssl verify -CApath' and 'certtool --verify' accept the demo chain; certkit agrees on both backends")
    func exportForOpenSSLAndGnuTLS() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        #expect(try BinaryTests.run(["trust", "add", "--store", store, FixtureLocator.sample("root-ca.pem")]).code == 0)
        let capath = directory.file("capath")
        let exported = try BinaryTests.run(["trust", "export", "--store", store, "--format", "openssl-dir", capath])
        #expect(exported.code == 0, "\(exported.stderr)")
        let hash = try Self.tool(["openssl", "x509", "-noout", "-subject_hash", "-in", FixtureLocator.sample("root-ca.pem")])
        #expect(try FileManager.default.contentsOfDirectory(atPath: capath) == [hash.output.trimmingCharacters(in: .whitespacesAndNewlines) + ".0"])
        let verify = try Self.tool([
            "openssl", "verify", "-CApath", capath, "-untrusted", FixtureLocator.sample("intermediate-ca.pem"), FixtureLocator.sample("server.pem"),
        ])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(verify.output.contains(": OK"))
        // Without the export the same verification fails (the directory is what makes the root trusted).
        let empty = directory.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(try Self.tool([
            "openssl", "verify", "-no-CAfile", "-no-CAstore", "-CApath", empty, "-untrusted", FixtureLocator.sample("intermediate-ca.pem"),
            FixtureLocator.sample("server.pem"),
        ]).status != 0)

        let bundle = directory.file("bundle.pem")
        #expect(try BinaryTests.run(["trust", "export", "--store", store, "--format", "pem-bundle", bundle]).code == 0)
        let certtool = try Self.tool([
            "certtool", "--verify", "--load-ca-certificate", bundle, "--infile", FixtureLocator.sample("server-chain.pem"),
        ])
        #expect(certtool.status == 0, "\(certtool.output)")
        #expect(try Self.tool(["openssl", "verify", "-CAfile", bundle, "-untrusted", FixtureLocator.sample("intermediate-ca.pem"), FixtureLocator.sample("server.pem")]).status == 0)
        let both = try BinaryTests.run([
            "evaluate", "--backend", "both", "--anchors", bundle, "--host", "localhost", "--at", "2030-06-01",
            FixtureLocator.sample("server-chain.pem"),
        ])
        #expect(both.code == 0, "\(String(decoding: both.stdout, as: UTF8.self))")
    }
}
