import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Glibc
import Testing

/// The client-identity fixtures (the identity fixture set, Scripts/fixtures.sh --set identity).
enum IdentityPaths {
    static func fixture(_ name: String) -> String {
        FixtureLocator.fixture("identity/\(name)")
    }

    static let passwordFile = fixture("password.txt")
    static let password = "certkit-test-password"
    static let backends = BackendRegistry.standard.names
}

/// `certkit inspect` and `certkit convert` on PKCS#12 files: certificates listed, the key said present and never
/// shown, written only with --include-key to a 0600 file, and one clear line for each error.
@Suite("inspect / convert: PKCS#12")
struct IdentityCommandTests {
    private let password = ["--password-file", IdentityPaths.passwordFile]

    @Test("inspect lists the certificates and says a key is present, never showing it", arguments: IdentityPaths.backends)
    func inspect(backend: String) throws {
        let run = certkit(["inspect", "--backend", backend, IdentityPaths.fixture("client.p12")] + password)
        #expect(run.code == 0, "\(run.stderr)")
        let text = run.stdoutText
        #expect(text.contains("Certificate 0 (") && text.contains("CN=alice"))
        #expect(text.contains("Certificate 1 (") && text.contains("CN=certkit Client Intermediate CA"))
        #expect(text.contains("client.p12): present for certificate 0, RSA 2048 (not shown)"))
        #expect(!text.contains("PRIVATE KEY") && !text.contains("BEGIN"))

        let json = certkit(["inspect", "--json", "--backend", backend, IdentityPaths.fixture("client.p12")] + password)
        #expect(json.code == 0)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any]
        let keys = document?["privateKeys"] as? [[String: Any]]
        #expect(keys?.count == 1)
        #expect(keys?.first?["present"] as? Bool == true)
        #expect(keys?.first?["algorithm"] as? String == "RSA 2048")
        #expect((document?["certificates"] as? [Any])?.count == 2)
    }

    @Test("inspect: a certificates-only PKCS#12 lists them and says there is no key", arguments: IdentityPaths.backends)
    func inspectNoKey(backend: String) {
        let run = certkit(["inspect", "--backend", backend, IdentityPaths.fixture("client-nokey.p12")] + password)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdoutText.contains("CN=alice"))
        #expect(run.stdoutText.contains("client-nokey.p12): none in the file"))
    }

    @Test("password from an environment variable; a missing or wrong password is one line, exit 1")
    func passwords() {
        setenv("CERTKIT_TEST_P12_PASSWORD", IdentityPaths.password, 1)
        setenv("CERTKIT_TEST_P12_WRONG", "nope", 1)
        let file = IdentityPaths.fixture("client.p12")
        #expect(certkit(["inspect", file, "--password-env", "CERTKIT_TEST_P12_PASSWORD"]).code == 0)

        let none = certkit(["inspect", file])
        #expect(none.code == 1)
        #expect(none.stderrLines == ["certkit: \(file): the PKCS#12 file needs a password: give --password-file FILE or --password-env VAR"])

        let wrong = certkit(["inspect", file, "--password-env", "CERTKIT_TEST_P12_WRONG"])
        #expect(wrong.code == 1)
        #expect(wrong.stderrLines == ["certkit: \(file): \(IdentityError.wrongPassword)"])

        let unset = certkit(["inspect", file, "--password-env", "CERTKIT_TEST_NO_SUCH_VARIABLE"])
        #expect(unset.code == 2)
        let both = certkit(["inspect", file, "--password-env", "X", "--password-file", IdentityPaths.passwordFile])
        #expect(both.code == 2)
        #expect(certkit(["inspect", "--password", "x", file]).code == 2, "no password on the command line")
    }

    @Test("legacy RC2 PKCS#12: OpenSSL says what to do, GnuTLS reads it")
    func legacy() {
        let file = IdentityPaths.fixture("client-legacy.p12")
        let openssl = certkit(["inspect", file] + password)
        #expect(openssl.code == 1)
        #expect(openssl.stderrLines.count == 1)
        #expect(openssl.stderr.contains("legacy RC2-40-CBC") && openssl.stderr.hasSuffix("import it with GnuTLS (--backend gnutls)\n"))
        let gnutls = certkit(["inspect", "--backend", "gnutls", file] + password)
        #expect(gnutls.code == 0, "\(gnutls.stderr)")
        #expect(gnutls.stdoutText.contains("present for certificate 0"))
    }

    @Test("a key that does not match: one line, exit 1", arguments: IdentityPaths.backends)
    func mismatch(backend: String) {
        let file = IdentityPaths.fixture("client-mismatch.p12")
        let run = certkit(["inspect", "--backend", backend, file] + password)
        #expect(run.code == 1)
        #expect(run.stderrLines == ["certkit: \(file): \(IdentityError.keyMismatch)"])
    }

    @Test("convert --to pem writes the certificates only", arguments: IdentityPaths.backends)
    func convertCertificates(backend: String) throws {
        let run = certkit(["convert", "--backend", backend, IdentityPaths.fixture("client.p12"), "--to", "pem"] + password)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdoutText == (try String(contentsOfFile: IdentityPaths.fixture("client-chain.pem"), encoding: .utf8)))
        #expect(!run.stdoutText.contains("PRIVATE KEY"))
    }

    @Test("convert --include-key: a 0600 file with the certificates and the key, never standard output",
          arguments: IdentityPaths.backends)
    func convertWithKey(backend: String) throws {
        let directory = try TemporaryDirectory()
        let out = directory.file("identity.pem")
        let p12 = IdentityPaths.fixture("client.p12")
        let run = certkit(["convert", "--backend", backend, p12, "--to", "pem", "--include-key", "--out", out] + password)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let attributes = try FileManager.default.attributesOfItem(atPath: out)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 3)
        #expect(text.components(separatedBy: "-----BEGIN PRIVATE KEY-----").count == 2)
        #expect(try directory.contents() == ["identity.pem"], "no temporary file left")

        // The written key is the identity's key: certificate + key import again on both backends.
        let bundle = try CertificateBundle.decode(Array(text.utf8))
        for importer in BackendRegistry.standard.entries.map({ $0.identityImporter() }) {
            let identity = try importer.importIdentity(
                certificates: bundle.certificates, privateKey: Array(text.utf8), password: nil)
            #expect(identity.certificate.subject.description == "CN=alice")
        }

        let toStdout = certkit(["convert", p12, "--include-key"] + password)
        #expect(toStdout.code == 2)
        #expect(toStdout.stdout.isEmpty)
        #expect(certkit(["convert", p12, "--include-key", "--to", "der", "--out", directory.file("x.der")] + password).code == 2)
        let noKey = certkit(["convert", IdentityPaths.fixture("client-nokey.p12"), "--include-key", "--out", directory.file("y.pem")] + password)
        #expect(noKey.code == 1)
        #expect(noKey.stderr.contains("no private key"))
    }
}
