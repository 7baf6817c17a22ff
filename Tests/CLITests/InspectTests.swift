import CertKit
import CertKitBackends
@testable import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

@Suite("inspect")
struct InspectTests {
    static let files = ["root-ca.pem", "intermediate-ca.pem", "server.pem", "self-signed.pem", "expired.pem",
                        "wrong-host.pem", "bundle.pem"]

    @Test("output is byte-identical on every backend", arguments: files)
    func backendsIdentical(name: String) {
        for extra in [[], ["--json"]] {
            let arguments = ["inspect", "--at", "2030-06-01"] + extra
            let results = BackendRegistry.standard.names.map { certkit(arguments + ["--backend", $0, FixtureLocator.sample(name)]) }
            #expect(results.allSatisfy { $0.code == 0 })
            #expect(!results[0].stdout.isEmpty)
            #expect(results.allSatisfy { $0.stdout == results[0].stdout })
        }
    }

    @Test("text shows the fields of the server certificate")
    func text() throws {
        let certificate = try sampleCertificates("server.pem")[0]
        let result = certkit(["inspect", "--at", "2030-06-01T00:00:00Z", FixtureLocator.sample("server.pem")])
        #expect(result.code == 0 && result.stderr.isEmpty)
        let text = result.stdoutText
        #expect(text.contains("Subject:             CN=localhost\n"))
        #expect(text.contains("Issuer:              CN=certkit Demo Intermediate CA\n"))
        #expect(text.contains("Status:              valid\n"))
        #expect(text.contains("Not before:          2018-02-01T00:00:00Z\n"))
        #expect(text.contains("Subject alt names:   DNS:localhost, IP:127.0.0.1\n"))
        #expect(text.contains("Public key:          RSA (2048 bit)\n"))
        #expect(text.contains("Signature algorithm: sha256WithRSAEncryption\n"))
        #expect(text.contains("Basic constraints:   CA:FALSE\n"))
        #expect(text.contains("Key usage:           digitalSignature, keyEncipherment\n"))
        #expect(text.contains("Extended key usage:  serverAuth\n"))
        #expect(text.contains("basicConstraints (critical)"))
        #expect(text.contains("SHA-256:             \(HexText.colonUppercase(try Digests.sha256(certificate.derEncoded)))\n"))
        #expect(text.contains("SPKI pin:            \(try SPKIPin(certificate: certificate, backend: Digests.backend))\n"))
    }

    @Test("fingerprints match the openssl command")
    func fingerprintsMatchOpenSSL() throws {
        let output = try ProcessRunner.run(
            ["/usr/bin/openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in", FixtureLocator.sample("server.pem")]
        ).stdoutText
        let expected = try #require(output.split(separator: "=", maxSplits: 1).last)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let result = certkit(["inspect", "--backend", "gnutls", FixtureLocator.sample("server.pem")])
        #expect(result.stdoutText.contains("SHA-256:             \(expected)\n"))
    }

    @Test("status is relative to --at")
    func status() throws {
        func status(_ at: String) throws -> String {
            let result = certkit(["inspect", "--json", "--at", at, FixtureLocator.sample("expired.pem")])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
            let certificates = try #require(json["certificates"] as? [[String: Any]])
            return try #require(certificates.first?["status"] as? String)
        }
        #expect(try status("2018-12-31") == "not yet valid")
        #expect(try status("2019-06-01T12:00:00+02:00") == "valid")
        #expect(try status("2030-06-01") == "expired")
    }

    @Test("JSON schema: exactly the documented keys and value forms")
    func jsonSchema() throws {
        let result = certkit(["inspect", "--json", "--at", "2030-06-01", FixtureLocator.sample("bundle.pem"), FixtureLocator.sample("server.pem")])
        #expect(result.code == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        #expect(Set(json.keys) == ["certificates"])
        let certificates = try #require(json["certificates"] as? [[String: Any]])
        #expect(certificates.count == 4)
        let keys: Set<String> = [
            "index", "file", "subject", "issuer", "serial", "notBefore", "notAfter", "status", "subjectAltNames",
            "publicKey", "signatureAlgorithm", "basicConstraints", "keyUsage", "extendedKeyUsage", "extensions",
            "sha256", "sha1", "spkiPin",
        ]
        for (index, certificate) in certificates.enumerated() {
            #expect(Set(certificate.keys) == keys)
            #expect(certificate["index"] as? Int == index)
            #expect((certificate["sha256"] as? String)?.count == 64)
            #expect((certificate["sha1"] as? String)?.count == 40)
            #expect(SPKIPin(try #require(certificate["spkiPin"] as? String)) != nil)
            #expect((certificate["notBefore"] as? String)?.hasSuffix("Z") == true)
            let key = try #require(certificate["publicKey"] as? [String: Any])
            #expect(Set(key.keys) == ["algorithm", "bits", "curve"])
            #expect(key["algorithm"] as? String == "RSA" && key["bits"] as? Int == 2048 && key["curve"] is NSNull)
            let extensions = try #require(certificate["extensions"] as? [[String: Any]])
            #expect(extensions.allSatisfy { Set($0.keys) == ["oid", "name", "critical"] })
        }
        #expect(certificates[0]["file"] as? String == FixtureLocator.sample("bundle.pem"))
        #expect(certificates[3]["file"] as? String == FixtureLocator.sample("server.pem"))
        let root = certificates[0]
        let constraints = try #require(root["basicConstraints"] as? [String: Any])
        #expect(Set(constraints.keys) == ["ca", "pathLength"])
        #expect(constraints["ca"] as? Bool == true)
        #expect(root["extendedKeyUsage"] is NSNull)
        #expect(root["keyUsage"] as? [String] == ["keyCertSign", "cRLSign"])
        let leaf = certificates[3]
        #expect(leaf["subjectAltNames"] as? [String] == ["DNS:localhost", "IP:127.0.0.1"])
        #expect(leaf["extendedKeyUsage"] as? [String] == ["serverAuth"])
        #expect(leaf["sha256"] as? String == Hex.encode(try Digests.sha256(sampleCertificates("server.pem")[0].derEncoded)))
        // Keys are sorted in the text itself, so the output is stable byte for byte.
        #expect(result.stdoutText.hasPrefix("{\n  \"certificates\": [\n    {\n      \"basicConstraints\": "))
    }

    @Test("usage errors", arguments: [["inspect"], ["inspect", "--at", "yesterday", "x"], ["inspect", "--backend", "x", "y"]])
    func usageErrors(arguments: [String]) {
        let result = certkit(arguments)
        #expect(result.code == 2 && result.stderrLines.count == 1)
    }
}
