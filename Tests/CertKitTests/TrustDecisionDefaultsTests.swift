@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// The defaults of `ServerTrust` and `ClientTrust`: given anchors, only those anchors are trusted, as
/// `SecTrustSetAnchorCertificates` does; the system roots join only when `anchorsOnly` is set to false. The
/// evaluator's system roots are the OCSP fixtures' CA, so a chain under it is trusted exactly when the system
/// roots are consulted.
@Suite("ServerTrust / ClientTrust defaults: anchors only")
struct TrustDecisionDefaultsTests {
    static func evaluator(_ backend: String) throws -> TrustEvaluator {
        let systemRoot = try OCSPResponseTests.certificate("ca.pem")
        return TrustEvaluator(
            backend: try #require(BackendRegistry.standard.backend(named: backend)), configuration: .uncached,
            systemAnchors: { [systemRoot] })
    }

    /// A root that certifies nothing presented.
    static func otherRoot() throws -> Certificate { try Fixtures.certificates("valid-chain-rsa/root-rsa.pem")[0] }

    @Test("ServerTrust: a chain under a system root is not trusted by default, and is with anchorsOnly false",
          arguments: BackendRegistry.standard.names)
    func server(backend: String) throws {
        let leaf = [try OCSPResponseTests.certificate("leaf-good.pem")]
        let date = try OCSPResponseTests.verifyDate()
        let byDefault = ServerTrust(evaluator: try Self.evaluator(backend), anchors: [try Self.otherRoot()], verifyDate: date)
        #expect(byDefault.anchorsOnly)
        let report = byDefault.evaluate(presentedChain: leaf, host: "leaf.example")
        #expect(!report.isTrusted, "\(report)")
        var withSystem = byDefault
        withSystem.anchorsOnly = false
        #expect(withSystem.evaluate(presentedChain: leaf, host: "leaf.example").isTrusted)
    }

    @Test("ClientTrust: a chain under a system root is not trusted by default, and is with anchorsOnly false",
          arguments: BackendRegistry.standard.names)
    func client(backend: String) throws {
        let leaf = [try OCSPResponseTests.certificate("leaf-good.pem")]
        let date = try OCSPResponseTests.verifyDate()
        let byDefault = ClientTrust(evaluator: try Self.evaluator(backend), anchors: [try Self.otherRoot()], verifyDate: date)
        #expect(byDefault.anchorsOnly)
        #expect(!byDefault.evaluate(presentedChain: leaf).isTrusted)
        var withSystem = byDefault
        withSystem.anchorsOnly = false
        #expect(withSystem.evaluate(presentedChain: leaf).isTrusted)
    }
}
