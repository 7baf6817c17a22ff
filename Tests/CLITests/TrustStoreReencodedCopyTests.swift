import CertKit
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// Certificates re-encoded without any key, through the command line, `--backend both`: a chain through the malleated copy of an
/// intermediate (ECDSA `s` → `n − s`, made without any key) that the store denies (`certkit trust add --result
/// deny`) or `--distrust` names is `deny` (was `proceed` and `unspecified: trusted`); a zero-padded or long-form
/// ECDSA signature is a `Signature` failure on both backends (was exit 3, GnuTLS verifying it).
@Suite("certkit: re-encoded copies through the trust store and --distrust")
struct TrustStoreReencodedCopyTests {
    static let chainFile = TrustFixtures.scenario("valid-chain-ec/chain.pem")
    static let rootFile = TrustFixtures.scenario("valid-chain-ec/root-ec.pem")

    /// Writes leaf + `transform(intermediate)` as a PEM chain, and the original intermediate alone.
    static func files(
        _ directory: TemporaryDirectory, _ transform: (Certificate) throws -> Certificate
    ) throws -> (chain: String, intermediate: String) {
        let chain = try Fixtures.certificates("valid-chain-ec/chain.pem")
        let copy = try transform(chain[1])
        let chainPEM = PEM.encode(chain[0].derEncoded) + PEM.encode(copy.derEncoded)
        return (try directory.write("copy-chain.pem", Array(chainPEM.utf8)),
                try directory.write("int-ec.pem", Array(PEM.encode(chain[1].derEncoded).utf8)))
    }

    static func evaluate(_ extra: [String], _ chain: String) -> RunResult {
        certkit(TrustFixtures.evaluateArguments + ["--backend", "both"] + extra + [chain])
    }

    @Test("trust add --result deny, then evaluate --trust-store on the malleated chain: deny (exit 12)")
    func storeDeny() throws {
        let directory = try TemporaryDirectory()
        let files = try Self.files(directory, ReencodedCertificate.malleated)
        let store = directory.file("store")
        for arguments in [[Self.rootFile], ["--result", "deny", files.intermediate]] {
            let added = certkit(["trust", "add", "--store", store] + arguments)
            #expect(added.code == 0, "\(added.stderr)")
        }
        let original = Self.evaluate(["--trust-store=\(store)"], Self.chainFile)
        #expect(original.code == 12, "\(original.stdoutText)")
        let copy = Self.evaluate(["--trust-store=\(store)"], files.chain)
        #expect(copy.code == 12, "\(copy.stdoutText)\(copy.stderr)")
        #expect(copy.stdoutText.hasPrefix("deny: errSecTrustSettingDeny"), "\(copy.stdoutText)")
    }

    @Test("--distrust the intermediate, evaluate the malleated chain: deny (exit 12)")
    func distrust() throws {
        let directory = try TemporaryDirectory()
        let files = try Self.files(directory, ReencodedCertificate.malleated)
        let trusted = Self.evaluate(["--anchors", Self.rootFile], files.chain)
        #expect(trusted.code == 0, "the copy verifies: \(trusted.stdoutText)")
        let run = Self.evaluate(["--anchors", Self.rootFile, "--distrust", files.intermediate], files.chain)
        #expect(run.code == 12, "\(run.stdoutText)\(run.stderr)")
    }

    @Test("zero-padded and long-form ECDSA signatures: both backends refuse them (exit 10, not 3)")
    func nonDERSignatures() throws {
        for transform in [ReencodedCertificate.zeroPadded, ReencodedCertificate.longForm] {
            let directory = try TemporaryDirectory()
            let files = try Self.files(directory, transform)
            let run = Self.evaluate(["--anchors", Self.rootFile], files.chain)
            #expect(run.code == 10, "\(run.stdoutText)\(run.stderr)")
            #expect(run.stdoutText.hasPrefix("recoverableTrustFailure: errSecCreateChainFailed"), "\(run.stdoutText)")
        }
    }
}
