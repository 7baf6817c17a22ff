import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// `inspect`, `convert` and `connect --identity` refuse a PKCS#12 file whose MAC asks for 2^31 − 1 iterations at
/// once, on both backends, with one line naming the file and the bound (exit 1, an input error), and no output;
/// a normal file (every count 2048, the key shrouded inside the encrypted content) is read as before.
@Suite("PKCS#12 iteration bounds on the command line")
struct PKCS12IterationBoundCommandTests {
    private let password = ["--password-file", IdentityPaths.passwordFile]
    private let huge = IdentityPaths.fixture("bounds-mac-huge.p12")
    private var refusal: String {
        "certkit: \(huge): refused before any key derivation: the PKCS#12 MAC asks for 2147483647 key-derivation "
            + "iterations, more than 1000000 (Limits.maxPKCS12Iterations)"
    }

    @Test("inspect and convert refuse the huge MAC count at once, one line, exit 1", arguments: IdentityPaths.backends)
    func inspectAndConvert(backend: String) {
        for command in [["inspect"], ["convert", "--to", "pem"]] {
            let start = ContinuousClock.now
            let run = certkit(command + ["--backend", backend, huge] + password)
            #expect(ContinuousClock.now - start < workBound(seconds: 2), "\(command) \(backend)")
            #expect(run.code == 1, "\(command) \(backend)")
            #expect(run.stdout.isEmpty, "\(command) \(backend)")
            #expect(run.stderrLines == [refusal], "\(command) \(backend): \(run.stderr)")
        }
        // Without a password too: the count is refused before any password is needed.
        let none = certkit(["inspect", "--backend", backend, huge])
        #expect(none.code == 1)
        #expect(none.stderrLines == [refusal], "\(backend): \(none.stderr)")
    }

    @Test("connect --identity refuses it before connecting", arguments: IdentityPaths.backends)
    func connect(tls: String) {
        let start = ContinuousClock.now
        // Nothing listens on port 1: the identity is loaded first.
        let run = certkitConnect("127.0.0.1:1", ["--tls", tls, "--identity", huge] + password)
        #expect(ContinuousClock.now - start < workBound(seconds: 2))
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.split(separator: "\n").map(String.init) == [refusal], "\(tls): \(run.stderr)")
    }

    @Test("connect --cert --key refuses an encrypted key file whose count is past the bound", arguments: IdentityPaths.backends)
    func connectKeyFile(tls: String) {
        let key = IdentityPaths.fixture("bounds-key-over.key")
        let run = certkitConnect("127.0.0.1:1", [
            "--tls", tls, "--cert", IdentityPaths.fixture("client-chain.pem"), "--key", key,
        ] + password)
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").map(String.init) == [
            "certkit: \(key): refused before any key derivation: the encrypted private key asks for 1000001 "
                + "key-derivation iterations, more than 1000000 (Limits.maxPKCS12Iterations)",
        ], "\(tls): \(run.stderr)")
    }

    /// Legacy PEM encryption (Proc-Type/DEK-Info, one MD5 round) wrapped around an encrypted PKCS#8 key hides the
    /// inner count from the core; the library would decrypt the outer layer and run the inner derivation unbounded.
    @Test("connect --cert --key refuses an ENCRYPTED PRIVATE KEY block with PEM headers before any derivation",
          arguments: IdentityPaths.backends)
    func connectKeyFileWithHeaders(tls: String) throws {
        let plain = try String(contentsOfFile: IdentityPaths.fixture("bounds-key-over.key"), encoding: .utf8)
        let wrapped = plain.replacingOccurrences(
            of: "-----BEGIN ENCRYPTED PRIVATE KEY-----\n",
            with: "-----BEGIN ENCRYPTED PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
                + "DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\n")
        #expect(wrapped != plain)
        let directory = try TemporaryDirectory()
        let key = try directory.write("legacy-wrapped.key", Array(wrapped.utf8))
        let run = certkitConnect("127.0.0.1:1", [
            "--tls", tls, "--cert", IdentityPaths.fixture("client-chain.pem"), "--key", key,
        ] + password)
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 && lines[0].hasPrefix("certkit: \(key): ")
                && lines[0].contains("PEM headers"), "\(tls): \(run.stderr)")
    }

    @Test("a normal file is read as before", arguments: IdentityPaths.backends)
    func control(backend: String) {
        let run = certkit(["inspect", "--backend", backend, IdentityPaths.fixture("bounds-control.p12")] + password)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdoutText.contains("CN=alice") && run.stdoutText.contains("RSA 2048 (not shown)"))
    }
}
