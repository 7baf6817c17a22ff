import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// The system store's documented bounds: a file over `fileByteLimit` is not read, at most `directoryFileLimit`
/// files are read from `SSL_CERT_DIR`, and a directory alone replaces the distribution's bundle.
@Suite("System trust store: bounds and sources")
struct SystemTrustStoreBoundsTests {
    static func rootPEM() throws -> [UInt8] { try FixtureLocator.bytes(FixtureLocator.sample("root-ca.pem")) }

    /// A PEM file of exactly `size` bytes: the sample root, then blank-free comment lines (text outside PEM blocks,
    /// which bundles carry and the decoder skips).
    static func paddedBundle(size: Int) throws -> [UInt8] {
        var bytes = try rootPEM()
        let line = Array("# padding outside any PEM block, as bundle headers are\n".utf8)
        while bytes.count + line.count <= size { bytes += line }
        bytes += Array(repeating: UInt8(ascii: "#"), count: size - bytes.count - 1) + [UInt8(ascii: "\n")]
        return bytes
    }

    @Test("a CA file of exactly fileByteLimit bytes is read; one byte more is not, and that is a problem")
    func fileSizeLimit() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-system-file")
        let limit = SystemTrustStore.fileByteLimit
        try directory.write("at-limit.pem", try Self.paddedBundle(size: limit))
        try directory.write("over-limit.pem", try Self.paddedBundle(size: limit + 1))

        let atLimit = SystemTrustStore.load(environment: ["SSL_CERT_FILE": directory.file("at-limit.pem")])
        #expect(atLimit.problem == nil, "\(atLimit.problem ?? "")")
        #expect(atLimit.certificates.count == 1)

        let over = SystemTrustStore.load(environment: ["SSL_CERT_FILE": directory.file("over-limit.pem")])
        #expect(over.certificates.isEmpty)
        #expect(over.problem?.contains(directory.file("over-limit.pem")) == true, "\(over.problem ?? "nil")")
    }

    @Test("at most directoryFileLimit files are read from SSL_CERT_DIR, in name order")
    func directoryFileLimit() throws {
        #expect(SystemTrustStore.directoryFileLimit == 10_000, "the documented bound")
        let limit = 20  // counted with a small limit: the same loop, ten thousand files fewer
        let junk = Array("not a certificate\n".utf8)
        for (others, found) in [(limit - 1, true), (limit, false)] {
            let directory = try TemporaryDirectory(prefix: "certkit-system-dir")
            for index in 0..<others { try directory.write(String(format: "a%05d.r0", index), junk) }
            // Sorted after every other name: read only while the budget lasts.
            try directory.write("z-root.pem", try Self.rootPEM())
            let contents = SystemTrustStore.load(environment: ["SSL_CERT_DIR": directory.path], directoryFileLimit: limit)
            #expect(contents.certificates.count == (found ? 1 : 0), "\(others) files before the root")
            #expect((contents.problem == nil) == found, "\(others) files before the root: \(contents.problem ?? "nil")")
        }
    }

    @Test("SSL_CERT_DIR alone replaces the distribution's bundle; SSL_CERT_FILE alone too")
    func variablesReplaceTheBundle() throws {
        let directory = try TemporaryDirectory(prefix: "certkit-system-only")
        try directory.write("root.pem", try Self.rootPEM())
        let fromDirectory = SystemTrustStore.load(environment: ["SSL_CERT_DIR": directory.path])
        #expect(fromDirectory.sources == [directory.path])
        #expect(fromDirectory.certificates.count == 1)
        let fromFile = SystemTrustStore.load(environment: ["SSL_CERT_FILE": directory.file("root.pem")])
        #expect(fromFile.sources == [directory.file("root.pem")])
        #expect(fromFile.certificates.count == 1)
    }
}
