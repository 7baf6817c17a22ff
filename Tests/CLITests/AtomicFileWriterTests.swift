@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

@Suite("atomic output")
struct AtomicFileWriterTests {
    @Test("commit renames every staged file; nothing temporary remains")
    func commit() throws {
        let directory = try TemporaryDirectory()
        let writer = AtomicFileWriter()
        try writer.stage([1, 2, 3], to: directory.file("a"))
        try writer.stage([4], to: directory.file("b"))
        #expect(try directory.contents().count == 2)
        #expect(try directory.contents().allSatisfy { $0.hasSuffix(".tmp") })
        try writer.commit()
        #expect(try directory.contents() == ["a", "b"])
        #expect(try FixtureLocator.bytes(directory.file("a")) == [1, 2, 3])
    }

    @Test("a rename that fails undoes the renames before it and removes the temporary files")
    func failedCommit() throws {
        let directory = try TemporaryDirectory()
        let writer = AtomicFileWriter()
        try writer.stage([1], to: directory.file("a"))
        try writer.stage([2], to: directory.file("b"))
        try writer.stage([3], to: directory.file("c"))
        // Appears after staging: a non-empty directory cannot be replaced by rename(2).
        try FileManager.default.createDirectory(atPath: directory.file("b"), withIntermediateDirectories: false)
        try Data([9]).write(to: URL(fileURLWithPath: directory.file("b/keep")))
        #expect(throws: CLIError.self) { try writer.commit() }
        #expect(try directory.contents() == ["b"])
    }

    @Test("discarding (or dropping the writer) removes staged files")
    func discard() throws {
        let directory = try TemporaryDirectory()
        do {
            let writer = AtomicFileWriter()
            try writer.stage([1], to: directory.file("a"))
        }
        #expect(try directory.contents().isEmpty)
    }
}
