import CertKit
import CertKitBackends
import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// `--system-roots` is the library's `anchorsOnly: false` (the core's SystemTrustStore), not the system bundle
/// passed as app-supplied anchors: the Apple profile's rules for app-supplied anchors (the 825-day limit) apply to
/// `--anchors` and not to the system roots, as in the library.
@Suite("--system-roots")
struct SystemRootsTests {
    static let scenario = FixtureLocator.scenario("validity-825-days-apple")

    @Test func systemRootsAreNotAppSuppliedAnchors() throws {
        let common = ["evaluate", "--host", "leaf.example", "--at", "2030-06-01T00:00:00Z", "--json"]
        let root = Self.scenario + "/root-rsa.pem"
        let chain = Self.scenario + "/chain.pem"
        let asAnchor = try BinaryTests.run(common + ["--anchors", root, chain])
        #expect(asAnchor.code == 10, "app-supplied anchor: the 825-day rule applies")
        let asSystem = try BinaryTests.run(common + ["--system-roots", chain], environment: ["SSL_CERT_FILE": root])
        #expect(asSystem.code == 0, "system root: it does not (\(asSystem.stderr))")
        // The library gives the same two verdicts for the same two kinds of anchor.
        let leafChain = try CertificateBundle.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: chain)))).certificates
        let anchors = try CertificateBundle.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: root)))).certificates
        let backend = try #require(BackendRegistry.standard.backend(named: "openssl"))
        let appSupplied = TrustEvaluator(backend: backend).evaluate(TrustEvaluation(
            certificates: leafChain, policies: [.sslServer(host: "leaf.example")], anchors: anchors,
            verifyDate: Date(timeIntervalSince1970: 1_906_502_400)))
        #expect(appSupplied.result == .recoverableTrustFailure)
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
