import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// When a valid CRL and a valid OCSP answer disagree, revoked wins, in the verdict and in the reported status:
/// a good OCSP answer never turns a CRL's revocation into "good" (both backends, `--backend both`).
@Suite("evaluate: a CRL's revocation is not overridden by a good OCSP answer")
struct RevocationPrecedenceTests {
    @Test("CRL lists the leaf, OCSP says good: fatal, status revoked from the CRL file")
    func crlRevocationKeepsItsStatus() throws {
        let pki = try OCSPFreshnessTests.pki()  // the leaf valid in the intermediate's database
        try pki.writeOCSPResponse("good.der")
        try pki.writeIntermediateDatabase(leafRevoked: true)  // now int.crl.der lists the leaf
        let date = try OCSPFreshnessTests.thisUpdate(pki.directory.file("good.der")).addingTimeInterval(60)
        let goodAlone = try OCSPFreshnessTests.evaluate(
            leaf: pki.leaf, anchors: pki.root, intermediates: pki.intermediate, response: pki.directory.file("good.der"),
            at: date)
        OCSPFreshnessTests.expectGood(goodAlone)

        let run = certkit(
            ["evaluate", "--anchors", pki.root, "--intermediates", pki.intermediate,
             "--at", ISO8601DateFormatter().string(from: date), "--backend", "both", "--json",
             "--ocsp-response", pki.directory.file("good.der"), "--crl", pki.directory.file("int.crl.der"), pki.leaf])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any], "\(run.stderr)")
        #expect(object["agree"] as? Bool == true, "\(run.stdoutText)")
        #expect(object["result"] as? String == "fatalTrustFailure", "\(run.stdoutText)")
        let chain = try #require(object["chain"] as? [[String: Any]])
        let revocation = try #require(chain[0]["revocation"] as? [String: Any])
        #expect(revocation["outcome"] as? String == "revoked", "\(revocation)")
        #expect(revocation["source"] as? String == "crlFile", "\(revocation)")
        #expect(chain[0]["failedRules"] as? [String] == ["certkit.revocation"], "\(chain[0])")
    }
}
