import CertKit
@testable import CertKitCLI
import Foundation
import Testing

/// Every valid CRL of an issuer is consulted: with two current CRLs of the intermediate, a leaf listed
/// only on one of them is revoked whichever order they are given in, on both backends (`--backend both`).
@Suite("evaluate: every valid CRL of an issuer counts")
struct RevocationManyCRLsTests {
    @Test("two valid CRLs of one issuer, only one lists the leaf: Revocation, in either order; neither lists it: trusted")
    func everyValidCRL() throws {
        let pki = try NetworkTestPKI(leafIssuerURL: "http://127.0.0.1:9/int.der")
        try pki.writeIntermediateDatabase(leafRevoked: false)
        try pki.writeIntermediateCRL("clean.crl.pem")
        try pki.writeIntermediateCRL("clean-again.crl.pem")
        try pki.writeIntermediateDatabase(leafRevoked: true)
        let clean = pki.directory.file("clean.crl.pem")
        let cleanAgain = pki.directory.file("clean-again.crl.pem")
        let revoking = pki.directory.file("int.crl.pem")
        for (crls, code) in [([clean, revoking], Int32(11)), ([revoking, clean], 11), ([clean, cleanAgain], 0)] {
            let run = certkit(
                ["evaluate", "--anchors", pki.root, "--intermediates", pki.intermediate, "--backend", "both", "--json"]
                    + crls.flatMap { ["--crl", $0] } + [pki.leaf])
            try #require(!run.stdout.isEmpty, "\(run.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
            #expect(object["agree"] as? Bool == true, "the backends disagree: \(run.stdoutText)")
            #expect(run.code == code, "\(crls.map { URL(fileURLWithPath: $0).lastPathComponent })")
            let chain = try #require(object["chain"] as? [[String: Any]])
            let outcome = (chain[0]["revocation"] as? [String: Any])?["outcome"] as? String
            #expect(outcome == (code == 0 ? "good" : "revoked"))
            if code != 0 { #expect(chain[0]["failedChecks"] as? [String] == ["Revocation"]) }
        }
    }
}
