import Foundation

/// The one place that finds files of the package for tests: Tests/Fixtures, Samples/, and the products
/// `swift build` builds (the `certkit` command, the sample programs).
package enum FixtureLocator {
    /// The package root (this file is Tests/Support/FixtureLocator.swift).
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Tests/Fixtures.
    package static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// Tests/Fixtures/scenarios, the conformance scenarios.
    package static let scenarios = fixtures.appendingPathComponent("scenarios")

    /// Samples/, the demo PKI.
    package static let samples = packageRoot.appendingPathComponent("Samples")

    /// The URL of `relative` inside the package root (e.g. `Tests/FaultShim/fault.c`).
    package static func url(_ relative: String) -> URL { packageRoot.appendingPathComponent(relative) }

    /// The path of `relative` inside Tests/Fixtures (e.g. `identity/client.p12`).
    package static func fixture(_ relative: String) -> String { fixtures.appendingPathComponent(relative).path }

    /// The path of `relative` inside Tests/Fixtures/scenarios (e.g. `valid-chain-rsa/chain.pem`).
    package static func scenario(_ relative: String) -> String { scenarios.appendingPathComponent(relative).path }

    /// The path of `name` inside Samples/ (e.g. `server.pem`).
    package static func sample(_ name: String) -> String { samples.appendingPathComponent(name).path }

    /// The bytes of the file at `path`.
    package static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The built executable `product` (`certkit`, `PinnedClient`, `ClientTrustServer`): next to the running test
    /// bundle (`.build/<config>/`), else in `.build/debug` under the package root; nil when none is executable.
    package static func product(_ product: String) -> String? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.executableURL?.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug"),
        ].compactMap { $0?.appendingPathComponent(product).path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
