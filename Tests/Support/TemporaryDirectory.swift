import Foundation
import Synchronization

/// A fresh directory under the system's temporary directory, removed with everything in it by ``remove()`` or
/// when the value is released.
package final class TemporaryDirectory: Sendable {
    /// The directory.
    package let url: URL
    private let removed = Atomic<Bool>(false)

    /// The directory's path.
    package var path: String { url.path }

    /// Creates `<tmp>/<prefix>-<UUID>`.
    package init(prefix: String = "certkit-tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// Removes the directory and its contents now (once; later calls do nothing).
    package func remove() {
        guard !removed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory.
    package func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The URL of `name` inside the directory.
    package func fileURL(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Names in the directory, or in the directory at `other` when given, hidden files included, sorted.
    package func contents(_ other: String? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: other ?? path).sorted()
    }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    package func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// The bytes of `name`.
    package func read(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: fileURL(name))) }
}
