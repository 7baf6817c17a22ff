@testable import CertKit
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Dispatch
import Foundation
import Testing

/// `TrustStore`: the format, reading and writing, errors that name the file, atomicity, locking, export.
@Suite("TrustStore")
struct TrustStoreTests {
    typealias Constraint = TrustSettings.UsageConstraint

    static let root = try! Fixtures.certificates("valid-chain-rsa/root-rsa.pem")[0]
    static let chain = try! Fixtures.certificates("valid-chain-rsa/chain.pem")
    /// 200 distinct self-signed certificates.
    static let distractors = try! Fixtures.certificates("distractor-pool/intermediates.pem").filter(\.isSelfSigned)

    static func store(_ directory: TemporaryDirectory, timeout: Duration = .seconds(30)) -> TrustStore {
        TrustStore(directory: directory.file("store"), backend: OpenSSLBackend(), lockTimeout: timeout)
    }

    /// The file's bytes (through FileHandle: `Data(contentsOf:)` leaks its buffer for an empty file, which
    /// LeakSanitizer reports).
    static func bytes(_ path: String) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        return Array(try handle.readToEnd() ?? Data())
    }

    @Test("a missing store is empty; add, read back from another instance, remove")
    func roundTrip() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let store = Self.store(directory)
        #expect(try store.entries().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.path), "reading creates nothing")
        #expect { try store.remove(sha256Prefix: "abcd") } throws: { ($0 as? TrustStoreError)?.code == .notFound }
        #expect(!FileManager.default.fileExists(atPath: store.directory), "a removal creates nothing")
        let added = try store.add(Self.root, constraint: Constraint(result: .trustRoot))
        #expect(added.sha256Hex == Hex.encode(try OpenSSLBackend().digest(.sha256, of: Self.root.derEncoded)))
        try store.add(Self.chain[1], constraint: Constraint(result: .deny, policy: .sslServer, host: "a.example"))

        let again = TrustStore(directory: store.directory, backend: GnuTLSBackend())
        let entries = try again.entries()
        #expect(entries.map(\.certificate) == [Self.root, Self.chain[1]])
        #expect(entries[1].constraints == [Constraint(result: .deny, policy: .sslServer, host: "a.example")])
        #expect(try again.settings(for: Self.root) == [Constraint(result: .trustRoot)])
        #expect(try again.settings(for: Self.chain[0]).isEmpty)
        #expect(try again.entry(matchingSHA256Prefix: String(added.sha256Hex.prefix(8)).uppercased()) == entries[0])

        let removed = try again.remove(sha256Prefix: String(added.sha256Hex.prefix(6)))
        #expect(removed.certificate == Self.root)
        #expect(try store.entries().map(\.certificate) == [Self.chain[1]])
        try store.remove(Self.chain[1])
        #expect(try store.entries().isEmpty)
        #expect(throws: TrustStoreError.self) { try store.remove(Self.chain[1]) }
        #expect(try directory.contents(store.directory) == [TrustStore.fileName, TrustStore.lockFileName])
    }

    @Test("settings are kept newest first; the same policy and host is replaced; setConstraints replaces all")
    func settingOrder() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let store = Self.store(directory)
        try store.add(Self.root, constraint: Constraint(result: .trustRoot))
        try store.add(Self.root, constraint: Constraint(result: .deny, policy: .sslServer, host: "A.example"))
        try store.add(Self.root, constraint: Constraint(result: .unspecified, allowedErrors: [.temporalValidity]))
        try store.add(Self.root, constraint: Constraint(result: .trustRoot, policy: .sslServer, host: "a.example"))
        #expect(try store.settings(for: Self.root) == [
            Constraint(result: .trustRoot, policy: .sslServer, host: "a.example"),
            Constraint(result: .unspecified, allowedErrors: [.temporalValidity]),
        ])
        let before = try Self.bytes(store.path)
        try store.add(Self.root, constraint: Constraint(result: .trustRoot, policy: .sslServer, host: "a.example"))
        #expect(try Self.bytes(store.path) == before, "adding the first setting again changes nothing")
        try store.setConstraints([Constraint(result: .deny)], for: Self.root)
        #expect(try store.settings(for: Self.root) == [Constraint(result: .deny)])
        try store.setConstraints([], for: Self.root)
        #expect(try store.entries().isEmpty)
    }

    @Test("a setting for one policy never replaces another policy's setting for the same host (nor the same policy's for another host)")
    func settingsPerPolicyAndHost() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let store = Self.store(directory)
        let server = Constraint(result: .deny, policy: .sslServer, host: "a.example")
        let client = Constraint(result: .trustRoot, policy: .sslClient, host: "a.example")
        let otherHost = Constraint(result: .trustRoot, policy: .sslServer, host: "b.example")
        try store.add(Self.root, constraint: server)
        try store.add(Self.root, constraint: client)
        #expect(try store.settings(for: Self.root) == [client, server])
        try store.add(Self.root, constraint: otherHost)
        #expect(try store.settings(for: Self.root) == [otherHost, client, server])
        // The store's settings still deny a.example to a server chain.
        let evaluation = TrustEvaluation(
            certificates: Self.chain, policies: [.sslServer(host: "a.example")], anchors: [Self.root],
            verifyDate: ConcurrencyFixtures.verifyDate, trustSettings: try store.trustSettings())
        #expect(TrustEvaluator(backend: OpenSSLBackend()).evaluate(evaluation).result == .deny)
    }

    @Test("the file: format, version, base64 DER, SHA-256, settings")
    func fileFormat() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let store = Self.store(directory)
        try store.add(Self.chain[1], constraint: Constraint(
            result: .trustAsRoot, policy: .sslClient, host: "client.example", allowedErrors: [.temporalValidity, .keySize]))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(Self.bytes(store.path))) as? [String: Any])
        #expect(json["format"] as? String == "certkit-trust-store")
        #expect(json["version"] as? Int == 1)
        let entry = try #require((json["certificates"] as? [[String: Any]])?.first)
        #expect(entry["subject"] as? String == "CN=Int RSA")
        #expect(entry["sha256"] as? String == Hex.encode(try OpenSSLBackend().digest(.sha256, of: Self.chain[1].derEncoded)))
        #expect(Data(base64Encoded: entry["certificate"] as? String ?? "") == Data(Self.chain[1].derEncoded))
        let settings = try #require(entry["settings"] as? [[String: Any]])
        #expect(settings.count == 1)
        #expect(settings[0]["result"] as? String == "trustAsRoot")
        #expect(settings[0]["policy"] as? String == "ssl-client")
        #expect(settings[0]["host"] as? String == "client.example")
        #expect(settings[0]["allowedErrors"] as? [String] == ["KeySize", "TemporalValidity"])
    }

    @Test("a setting the certificate cannot take is refused before anything is written")
    func invalidSetting() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let store = Self.store(directory)
        for (certificate, constraint) in [
            (Self.chain[1], Constraint(result: .trustRoot)),
            (Self.root, Constraint(result: .trustAsRoot)),
            (Self.root, Constraint(result: .trustRoot, host: "a.example")),
            (Self.root, Constraint(result: .trustRoot, policy: .basic, host: "a.example")),
            (Self.root, Constraint(result: .unspecified, allowedErrors: [.signature])),
        ] {
            #expect { try store.add(certificate, constraint: constraint) } throws: { error in
                (error as? TrustStoreError)?.code == .invalidSetting
            }
        }
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    /// Writes `text` as the store file, then checks that reading, adding and removing all fail with `kind`,
    /// naming the file, and leave it byte for byte as it was.
    private func expectRefused(_ text: String, kind: TrustStoreError.Code, mentioning words: String) throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let store = Self.store(directory)
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: store.path))
        let operations: [(String, () throws -> Void)] = [
            ("entries", { _ = try store.entries() }),
            ("trustSettings", { _ = try store.trustSettings() }),
            ("add", { try store.add(Self.root, constraint: Constraint(result: .trustRoot)) }),
            ("remove", { try store.remove(sha256Prefix: "abcd") }),
        ]
        for (name, operation) in operations {
            do {
                try operation()
                Issue.record("\(name) accepted a bad store: \(text.prefix(60))")
            } catch let error as TrustStoreError {
                #expect(error.code == kind, "\(name): \(error)")
                #expect(error.file == store.path, "\(name): \(error)")
                #expect(error.description.contains(words), "\(name): \(error)")
                #expect(!error.description.contains("\n"))
            }
        }
        #expect(try Self.bytes(store.path) == Array(text.utf8), "the store file is never overwritten")
        #expect(try directory.contents(store.directory).allSatisfy { !$0.hasSuffix(TrustStoreFiles.temporarySuffix) })
    }

    @Test("a corrupt store is an error naming the file, and is never overwritten")
    func corruptStores() throws {
        let der = Data(Self.root.derEncoded).base64EncodedString()
        let digest = Hex.encode(try OpenSSLBackend().digest(.sha256, of: Self.root.derEncoded))
        func document(_ entry: String) -> String {
            #"{"format": "certkit-trust-store", "version": 1, "certificates": [\#(entry)]}"#
        }
        let cases: [(String, String)] = [
            ("", "not JSON"),
            ("{\"format\": \"certkit-trust-store\", \"version\": 1, \"certificates\": [", "not JSON"),
            ("[1, 2]", "not a JSON object"),
            (#"{"version": 1, "certificates": []}"#, "no \"format\""),
            (#"{"format": "something-else", "version": 1, "certificates": []}"#, "format is 'something-else'"),
            (#"{"format": "certkit-trust-store", "certificates": []}"#, "no format version"),
            (#"{"format": "certkit-trust-store", "version": 0, "certificates": []}"#, "unknown format version 0"),
            (#"{"format": "certkit-trust-store", "version": "1", "certificates": []}"#, "bad value at 'version'"),
            (#"{"format": "certkit-trust-store", "version": 1}"#, "missing key 'certificates'"),
            (document(#"{"sha256": "\#(digest)", "subject": "x", "certificate": "%%%", "settings": [{"result": "trustRoot"}]}"#),
             "certificate 1: not base64"),
            (document(#"{"sha256": "\#(digest)", "subject": "x", "certificate": "AAAA", "settings": [{"result": "trustRoot"}]}"#),
             "certificate 1:"),
            (document(#"{"sha256": "\#(String(repeating: "0", count: 64))", "subject": "x", "certificate": "\#(der)", "settings": [{"result": "trustRoot"}]}"#),
             "is not the SHA-256 of its certificate"),
            (document(#"{"sha256": "\#(digest)", "subject": "x", "certificate": "\#(der)", "settings": []}"#),
             "no settings"),
            (document(#"{"sha256": "\#(digest)", "subject": "x", "certificate": "\#(der)", "settings": [{"result": "trustEverything"}]}"#),
             "bad value at 'certificates[0].settings[0].result'"),
            (document(#"{"sha256": "\#(digest)", "subject": "x", "certificate": "\#(der)", "settings": [{"result": "trustAsRoot"}]}"#),
             "trustAsRoot is only for a certificate that is not self-signed"),
            (document(#"{"sha256": "\#(digest)", "subject": "x", "certificate": "\#(der)", "settings": [{"result": "unspecified", "allowedErrors": ["Revocation"]}]}"#),
             "Revocation cannot be allowed"),
            (document(#"{"sha256": "\#(digest)", "subject": "x", "certificate": "\#(der)", "settings": [{"result": "trustRoot"}]}, {"sha256": "\#(digest)", "subject": "x", "certificate": "\#(der)", "settings": [{"result": "deny"}]}"#),
             "certificate 2: listed twice"),
        ]
        for (text, words) in cases {
            try expectRefused(text, kind: .corrupt, mentioning: words)
        }
    }

    @Test("a store from a newer certkit is neither read nor overwritten")
    func newerFormat() throws {
        try expectRefused(
            #"{"format": "certkit-trust-store", "version": 3, "anchors": {"whatever": true}}"#, kind: .newerFormat,
            mentioning: "format version 3 was written by a newer certkit (this one reads version 2)")
    }

    @Test("an unreadable store file is an error naming it")
    func unreadable() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let store = Self.store(directory)
        try FileManager.default.createDirectory(atPath: store.path, withIntermediateDirectories: true)
        #expect { try store.entries() } throws: { error in
            let error = error as? TrustStoreError
            return error?.code == .unreadable && error?.file == store.path && error?.problem.contains("not a regular file") == true
        }
        #expect { try store.add(Self.root, constraint: Constraint(result: .trustRoot)) } throws: { error in
            (error as? TrustStoreError)?.code == .unreadable
        }
        // A store directory that is a file cannot hold a store.
        let file = directory.file("plain")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let misplaced = TrustStore(directory: file, backend: OpenSSLBackend())
        #expect { try misplaced.add(Self.root, constraint: Constraint(result: .trustRoot)) } throws: { error in
            (error as? TrustStoreError)?.file == file
        }
    }

    @Test("a failed write leaves the old file whole and no temporary file behind")
    func failedWriteIsAtomic() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let target = directory.file("occupied")
        try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
        #expect { try TrustStoreFiles.replace(target, with: Array(repeating: 0x41, count: 100_000)) } throws: { error in
            (error as? TrustStoreError)?.code == .unwritable
        }
        #expect(try directory.contents() == ["occupied"], "the temporary file is gone")
        #expect(try directory.contents(target) == ["inside"])

        // A temporary file a dead writer left is removed by the next writer.
        let store = Self.store(directory)
        try store.add(Self.root, constraint: Constraint(result: .trustRoot))
        let stale = store.directory + "/." + TrustStore.fileName + ".dead" + TrustStoreFiles.temporarySuffix
        try Data("{\"partial".utf8).write(to: URL(fileURLWithPath: stale))
        #expect(try store.entries().count == 1, "readers ignore temporary files")
        try store.add(Self.chain[1], constraint: Constraint(result: .deny))
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    @Test("a writer waits for the lock, and gives up after its timeout")
    func lockTimeout() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let store = Self.store(directory, timeout: .milliseconds(200))
        try store.add(Self.root, constraint: Constraint(result: .trustRoot))
        let before = try Self.bytes(store.path)
        do {
            let held = try TrustStoreFiles.Lock(path: store.lockPath, timeout: .seconds(1))
            let start = ContinuousClock.now
            #expect { try store.add(Self.chain[1], constraint: Constraint(result: .deny)) } throws: { error in
                let error = error as? TrustStoreError
                return error?.code == .locked && error?.file == store.lockPath
            }
            #expect(ContinuousClock.now - start >= .milliseconds(200))
            #expect(try store.entries().count == 1, "readers take no lock")
            withExtendedLifetime(held) {}
        }
        #expect(try Self.bytes(store.path) == before)
        try store.add(Self.chain[1], constraint: Constraint(result: .deny))
        #expect(try store.entries().count == 2)
    }

    @Test("16 threads adding at once through their own TrustStore values lose nothing")
    func concurrentThreads() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let certificates = Array(Self.distractors.prefix(16))
        let errors = LockedErrors()
        DispatchQueue.concurrentPerform(iterations: certificates.count) { index in
            do {
                try Self.store(directory).add(certificates[index], constraint: Constraint(result: .trustRoot))
            } catch {
                errors.append("\(error)")
            }
        }
        #expect(errors.all.isEmpty)
        #expect(Set(try Self.store(directory).entries().map(\.certificate)) == Set(certificates))
    }

    @Test("the store's settings in an evaluation, on both backends", arguments: ["openssl", "gnutls"])
    func evaluationUsesStore(backend: String) throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let store = Self.store(directory)
        try store.add(Self.root, constraint: Constraint(result: .trustRoot, policy: .sslServer, host: "leaf.example"))
        let trustBackend: any TrustBackend = backend == "openssl" ? OpenSSLBackend() : GnuTLSBackend()
        var evaluation = TrustEvaluation(
            certificates: Self.chain, policies: [.sslServer(host: "leaf.example")], anchorsOnly: true,
            verifyDate: TrustSettingsScopeTests.date, trustSettings: try store.trustSettings())
        #expect(evaluation.evaluate(with: TrustEvaluator(backend: trustBackend)).result == .proceed)
        try store.add(Self.chain[1], constraint: Constraint(result: .deny))
        evaluation.trustSettings = try store.trustSettings()
        #expect(evaluation.evaluate(with: TrustEvaluator(backend: trustBackend)).result == .deny)
    }

    @Test("export: only unrestricted anchors; a PEM bundle and an OpenSSL directory named by subject hash")
    func export() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let store = Self.store(directory)
        let (first, second, third, fourth) = (Self.distractors[0], Self.distractors[1], Self.distractors[2], Self.distractors[3])
        try store.add(first, constraint: Constraint(result: .trustRoot))
        try store.add(second, constraint: Constraint(result: .trustRoot, policy: .sslServer, host: "a.example"))
        try store.add(third, constraint: Constraint(result: .deny))
        try store.add(fourth, constraint: Constraint(result: .unspecified, allowedErrors: [.temporalValidity]))
        try store.add(Self.chain[1], constraint: Constraint(result: .trustAsRoot))
        let selection = try store.exportSelection()
        #expect(selection.included.map(\.certificate) == [first, Self.chain[1]])
        #expect(selection.skipped.map(\.entry.certificate) == [second, third, fourth])

        let bundlePath = directory.file("bundle.pem")
        let written = try store.exportPEMBundle(to: bundlePath)
        #expect(written.files == [bundlePath])
        #expect(try CertificateBundle.decode(Self.bytes(bundlePath)).certificates == [first, Self.chain[1]])

        let openssl = OpenSSLBackend()
        let capath = directory.file("capath")
        let exported = try store.exportOpenSSLDirectory(to: capath) { certificate throws(BackendError) in
            try openssl.subjectNameHash(of: certificate)
        }
        #expect(exported.files.count == 2)
        for (file, entry) in zip(exported.files, exported.included) {
            #expect(try CertificateBundle.decode(Self.bytes(file)).certificates == [entry.certificate])
            #expect(TrustStore.isHashFileName((file as NSString).lastPathComponent))
        }
        // Exporting again after a removal replaces the files and removes the stale one.
        try store.remove(first)
        let again = try store.exportOpenSSLDirectory(to: capath) { certificate throws(BackendError) in
            try openssl.subjectNameHash(of: certificate)
        }
        #expect(try directory.contents(capath) == again.files.map { ($0 as NSString).lastPathComponent })
        // A directory holding anything else is not written into.
        try Data("notes".utf8).write(to: URL(fileURLWithPath: capath + "/README"))
        #expect(throws: TrustStoreError.self) {
            try store.exportOpenSSLDirectory(to: capath) { certificate throws(BackendError) in
                try openssl.subjectNameHash(of: certificate)
            }
        }
    }

    @Test("the default directory: CERTKIT_STORE, else XDG_DATA_HOME/certkit, else ~/.local/share/certkit")
    func defaultDirectory() {
        #expect(TrustStore.defaultDirectory(environment: ["CERTKIT_STORE": "/s", "XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/s")
        #expect(TrustStore.defaultDirectory(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/certkit")
        #expect(TrustStore.defaultDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]) == "/h/.local/share/certkit")
        #expect(TrustStore.defaultDirectory(environment: ["HOME": "/h", "CERTKIT_STORE": ""]) == "/h/.local/share/certkit")
        #expect(TrustStore.defaultDirectory(environment: [:]) == nil)
    }
}

/// Error texts collected from several threads.
final class LockedErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []

    func append(_ error: String) {
        lock.lock()
        errors.append(error)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return errors
    }
}
