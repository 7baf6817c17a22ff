import CertKit
import CertKitTestSupport
import Foundation
import Glibc
import Testing

/// A FIFO, a directory or a device in place of the store file or its lock: every command that touches it fails at
/// once with one line naming the file, and never waits. Each run is the built binary under a
/// watchdog, so a regression fails instead of hanging the suite.
@Suite("trust store: special files", .serialized)
struct TrustStoreSpecialFileTests {
    /// The longest one command may take before it counts as hung.
    static let watchdog: TimeInterval = 15

    struct Outcome {
        var code: Int32
        var stdout: String
        var stderr: String
        var hung: Bool
    }

    /// Runs `certkit arguments` (standard input: /dev/null), killing it after ``watchdog`` seconds.
    static func run(_ arguments: [String]) throws -> Outcome {
        let executable = try #require(BinaryTests.executable, "build the certkit product first")
        let result = try ProcessRunner.run([executable] + arguments, timeout: watchdog)
        return Outcome(code: result.status, stdout: result.stdoutText, stderr: result.stderrText, hung: result.timedOut)
    }

    /// Every command that reads or changes the store in `store`.
    static func commands(store: String, scratch: TemporaryDirectory) throws -> [[String]] {
        let prefix = String(try TrustFixtures.sha256(TrustFixtures.root).prefix(16))
        return [
            ["trust", "add", "--store", store, TrustFixtures.root],
            ["trust", "remove", "--store", store, prefix],
            ["trust", "list", "--store", store],
            ["trust", "list", "--json", "--store", store],
            ["trust", "show", "--store", store, prefix],
            ["trust", "show", "--json", "--store", store, prefix],
            ["trust", "export", "--store", store, "--format", "pem-bundle", scratch.file("bundle.pem")],
            ["trust", "export", "--store", store, "--format", "openssl-dir", scratch.file("certs")],
            TrustFixtures.evaluateArguments + ["--store", store, TrustFixtures.chain],
        ]
    }

    @Test("a FIFO in place of trust-store.json: every trust command (and evaluate --trust-store) refuses it at once")
    func fifoStoreFile() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        let file = store + "/" + TrustStore.fileName
        #expect(mkfifo(file, 0o644) == 0)
        for arguments in try Self.commands(store: store, scratch: directory) {
            let run = try Self.run(arguments)
            #expect(!run.hung, "\(arguments) hung on the FIFO")
            #expect(run.code == 1, "\(arguments): \(run.stdout)\(run.stderr)")
            #expect(run.stderr == "certkit: \(file): cannot read: it is a FIFO, not a regular file\n", "\(arguments)")
            #expect(run.stdout.isEmpty, "\(arguments): no partial output")
        }
    }

    @Test("a directory or a device in place of trust-store.json is named too")
    func otherSpecialFiles() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store")
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        let file = store + "/" + TrustStore.fileName
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        let list = try Self.run(["trust", "list", "--store", store])
        #expect(list.code == 1 && list.stderr == "certkit: \(file): cannot read: it is a directory, not a regular file\n")
        try FileManager.default.removeItem(atPath: file)
        #expect(symlink("/dev/zero", file) == 0)
        let device = try Self.run(["trust", "list", "--store", store])
        #expect(!device.hung)
        #expect(device.code == 1
                && device.stderr == "certkit: \(file): cannot read: it is a character device, not a regular file\n",
                "\(device.stderr)")
    }

    @Test("a FIFO or a directory in place of trust-store.lock: add and remove refuse it at once, naming it")
    func specialLockFile() throws {
        for kind in ["FIFO", "directory"] {
            let directory = try TemporaryDirectory()
            let store = directory.file("store")
            try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
            let lock = store + "/" + TrustStore.lockFileName
            if kind == "FIFO" {
                #expect(mkfifo(lock, 0o644) == 0)
            } else {
                try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
            }
            let prefix = String(try TrustFixtures.sha256(TrustFixtures.root).prefix(16))
            for arguments in [["trust", "add", "--store", store, TrustFixtures.root], ["trust", "remove", "--store", store, prefix]] {
                let run = try Self.run(arguments)
                #expect(!run.hung, "\(arguments) hung on the \(kind)")
                #expect(run.code == 1, "\(arguments): \(run.stderr)")
                #expect(run.stderr == "certkit: \(lock): cannot open the lock: it is a \(kind), not a regular file\n",
                        "\(arguments): \(run.stderr)")
                #expect(run.stdout.isEmpty)
            }
            #expect(!FileManager.default.fileExists(atPath: store + "/" + TrustStore.fileName), "nothing was written")
        }
    }
}
