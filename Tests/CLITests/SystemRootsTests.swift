import CertKit
import CertKitBackends
import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// `--system-roots` is the library's `anchorsOnly: false` (the core's SystemTrustStore), not the system bundle
/// passed as app-supplied anchors: trustd's validity-period maximums differ by the anchor's origin (825 days and
/// 3600 s under `--anchors`, 398 days for a leaf issued since 2020-09-01 under a system root), as in the library.
@Suite("--system-roots")
struct SystemRootsTests {
    /// A leaf valid 516 days, issued 2030-01-01.
    static let scenario = FixtureLocator.scenario("valid-chain-rsa")

    @Test func systemRootsAreNotAppSuppliedAnchors() throws {
        let common = ["evaluate", "--host", "leaf.example", "--at", "2030-06-01T00:00:00Z", "--json"]
        let root = Self.scenario + "/root-rsa.pem"
        let chain = Self.scenario + "/chain.pem"
        let asAnchor = try BinaryTests.run(common + ["--anchors", root, chain])
        #expect(asAnchor.code == 0, "app-supplied anchor: 825 days and 3600 s at most (\(asAnchor.stderr))")
        let asSystem = try BinaryTests.run(common + ["--system-roots", chain], environment: ["SSL_CERT_FILE": root])
        #expect(asSystem.code == 10, "system root: 398 days at most")
        let systemText = String(decoding: asSystem.stdout, as: UTF8.self)
        #expect(systemText.contains("apple.validity-system-roots"), "\(systemText)")
        // The library gives the same two verdicts for the same two kinds of anchor.
        let leafChain = try CertificateBundle.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: chain)))).certificates
        let anchors = try CertificateBundle.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: root)))).certificates
        let backend = try #require(BackendRegistry.standard.backend(named: "openssl"))
        let appSupplied = TrustEvaluator(backend: backend).evaluate(TrustEvaluation(
            certificates: leafChain, policies: [.sslServer(host: "leaf.example")], anchors: anchors,
            verifyDate: Date(timeIntervalSince1970: 1_906_502_400)))
        #expect(appSupplied.result == .unspecified)
        let system = TrustEvaluator(backend: backend, systemAnchors: { anchors }).evaluate(TrustEvaluation(
            certificates: leafChain, policies: [.sslServer(host: "leaf.example")], anchorsOnly: false,
            verifyDate: Date(timeIntervalSince1970: 1_906_502_400)))
        #expect(system.result == .recoverableTrustFailure)
        #expect(system.checks.first == [.validityPeriodMaximums])
    }

    @Test func aMissingSystemBundleIsAClearInputError() throws {
        let result = try BinaryTests.run(
            ["evaluate", "--system-roots", "--host", "leaf.example", Self.scenario + "/chain.pem"],
            environment: ["SSL_CERT_FILE": "/nonexistent/bundle.pem"])
        #expect(result.code == 1)
        #expect(result.stderr.hasPrefix("certkit: /nonexistent/bundle.pem: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
