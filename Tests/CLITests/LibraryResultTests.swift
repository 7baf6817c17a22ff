import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// Every library call whose result decides trust, answered with each value its documentation lists, through a
/// fault-injecting shim preloaded into a real `certkit` process (Tests/FaultShim/fault.c): success verifies,
/// "does not verify" and every error code refuse the chain and name the failure, an undocumented positive
/// OpenSSL answer is not read as success, and a key or digest the library cannot produce never passes. In the audit
/// mode, the libraries' own verdicts too: an error, a refusal naming no reason or an unknown one, and an unknown
/// status bit refuse; a library's "yes" never overrules the core's "no".
@Suite("library results: every documented return value of the calls that decide trust")
struct LibraryResultTests {
    /// The shim, built once per test process with the C compiler next to the toolchain (or cc), or nil.
    static let shim: String? = {
        let source = FixtureLocator.url("Tests/FaultShim/fault.c").path
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("certkit-fault-\(ProcessInfo.processInfo.processIdentifier).so").path
        for compiler in ["clang", "cc", "gcc"] {
            let command = ["/usr/bin/env", compiler, "-shared", "-fPIC", "-O1", "-o", output, source, "-ldl"]
            guard let result = try? ProcessRunner.run(command) else { continue }
            if result.status == 0 { return output }
        }
        return nil
    }()

    struct Chain {
        var chain: String
        var anchors: String
        var host: String
        var at: String?
    }

    static let rsa = Chain(chain: FixtureLocator.sample("server-chain.pem"), anchors: FixtureLocator.sample("root-ca.pem"),
                           host: "localhost", at: nil)
    static let ec = Chain(
        chain: FixtureLocator.scenario("valid-chain-ec/chain.pem"),
        anchors: FixtureLocator.scenario("valid-chain-ec/root-ec.pem"),
        host: "leaf.example", at: "2030-06-01T00:00:00Z")

    /// `certkit evaluate --json` on `chain` with the shim answering `fault` ("NAME=VALUE"), or with no fault.
    static func evaluate(_ chain: Chain, backend: String, fault: String?, extra: [String] = []) throws
        -> (code: Int32, json: String)
    {
        let shim = try #require(shim, "a C compiler (clang, cc or gcc) builds Tests/FaultShim/fault.c")
        var arguments = ["evaluate", "--json", "--backend", backend, "--anchors", chain.anchors, "--host", chain.host]
            + extra
        if let at = chain.at { arguments += ["--at", at] }
        arguments.append(chain.chain)
        var environment = ["LD_PRELOAD": shim, "CERTKIT_FAULT": fault ?? "none=0"]
        // A sanitizer runtime must otherwise come first in the library list.
        let asan = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
        environment["ASAN_OPTIONS"] = asan + "verify_asan_link_order=0"
        let outcome = try BinaryTests.run(arguments, environment: environment)
        return (outcome.code, String(decoding: outcome.stdout, as: UTF8.self))
    }

    /// The chain is refused (never trusted, exit 10 or 13), and, when `check` is given, the report names it.
    static func expectRefused(_ chain: Chain, backend: String, fault: String, check: String?, extra: [String] = [])
        throws
    {
        let result = try evaluate(chain, backend: backend, fault: fault, extra: extra)
        #expect(result.code == 10 || result.code == 13, "\(backend) \(fault): exit \(result.code)")
        #expect(!result.json.contains("\"trusted\":true") && !result.json.contains("\"trusted\": true"),
                "\(backend) \(fault) must not trust")
        if let check {
            #expect(result.json.contains("\"\(check)\""), "\(backend) \(fault): \(check) not named in \(result.json)")
        }
    }

    @Test("with the shim loaded and no fault, both chains are trusted on both backends (the shim passes calls through)")
    func passThrough() throws {
        for chain in [Self.rsa, Self.ec] {
            for backend in ["openssl", "gnutls"] {
                let result = try Self.evaluate(chain, backend: backend, fault: nil)
                #expect(result.code == 0, "\(backend) \(chain.chain): exit \(result.code) \(result.json)")
            }
        }
    }

    @Test("OpenSSL EVP_DigestVerify: 1 verifies; 0, -1, -2 and an undocumented 2 refuse with Signature",
          arguments: ["0", "-1", "-2", "2"])
    func opensslVerify(value: String) throws {
        for chain in [Self.rsa, Self.ec] {
            try Self.expectRefused(chain, backend: "openssl", fault: "EVP_DigestVerify=\(value)", check: "Signature")
        }
        #expect(try Self.evaluate(Self.rsa, backend: "openssl", fault: "EVP_DigestVerify=1").code == 0)
    }

    @Test("GnuTLS gnutls_pubkey_verify_data2: 0 and positive verify; SIG_VERIFY_FAILED and any other error refuse",
          arguments: ["-89", "-50", "-1"])
    func gnutlsVerify(value: String) throws {
        for chain in [Self.rsa, Self.ec] {
            try Self.expectRefused(chain, backend: "gnutls", fault: "gnutls_pubkey_verify_data2=\(value)",
                                   check: "Signature")
        }
        #expect(try Self.evaluate(Self.rsa, backend: "gnutls", fault: "gnutls_pubkey_verify_data2=0").code == 0)
        #expect(try Self.evaluate(Self.rsa, backend: "gnutls", fault: "gnutls_pubkey_verify_data2=1").code == 0)
    }

    @Test("a key the library cannot import never verifies: OpenSSL d2i_PublicKey (RSA), the EC point, d2i_PUBKEY (Ed25519); GnuTLS import")
    func keyImport() throws {
        try Self.expectRefused(Self.rsa, backend: "openssl", fault: "d2i_PublicKey=null", check: nil)
        try Self.expectRefused(Self.ec, backend: "openssl", fault: "EVP_PKEY_set1_encoded_public_key=0", check: nil)
        let ed25519 = Chain(
            chain: FixtureLocator.scenario("attacks-ed25519-chain/chain.pem"),
            anchors: FixtureLocator.scenario("attacks-ed25519-chain/root-ed25519.pem"),
            host: "leaf.example", at: "2030-06-01T00:00:00Z")
        let rfc5280 = ["--profile", "rfc5280"]
        #expect(try Self.evaluate(ed25519, backend: "openssl", fault: nil, extra: rfc5280).code == 0)
        try Self.expectRefused(ed25519, backend: "openssl", fault: "d2i_PUBKEY=null", check: nil, extra: rfc5280)
        for chain in [Self.rsa, Self.ec] {
            try Self.expectRefused(chain, backend: "gnutls", fault: "gnutls_pubkey_import=-50", check: nil)
        }
    }

    @Test("a pin the library cannot hash never matches: OpenSSL EVP_Digest 0, GnuTLS gnutls_hash_fast < 0")
    func digest() throws {
        let root = try #require(try sampleCertificates("root-ca.pem").first)
        let backend = try #require(BackendRegistry.standard.backend(named: "openssl"))
        let pin = try SPKIPin(certificate: root, backend: backend).description
        for name in ["openssl", "gnutls"] {
            #expect(try Self.evaluate(Self.rsa, backend: name, fault: nil, extra: ["--pin", pin]).code == 0)
        }
        try Self.expectRefused(Self.rsa, backend: "openssl", fault: "EVP_Digest=0", check: nil, extra: ["--pin", pin])
        try Self.expectRefused(Self.rsa, backend: "gnutls", fault: "gnutls_hash_fast=-50", check: nil,
                               extra: ["--pin", pin])
    }

    @Test("audit mode, OpenSSL X509_verify_cert: 0 with an error, 0 naming none, -1 and an undocumented 2 never trust",
          arguments: [("0:2", "LibraryVerdict"), ("0:4242", "LibraryVerdict"), ("0", "LibraryVerdict"),
                      ("-1", "BackendError"), ("2", "BackendError")])
    func opensslLibraryVerdict(value: String, check: String) throws {
        for chain in [Self.rsa, Self.ec] {
            try Self.expectRefused(chain, backend: "openssl", fault: "X509_verify_cert=\(value)", check: check,
                                   extra: ["--audit"])
        }
    }

    @Test("audit mode, GnuTLS trust-list verification: an error, INVALID alone, an unknown status bit never trust",
          arguments: [("-50", "BackendError"), ("status:2", "LibraryVerdict"), ("status:0x40000000", "LibraryVerdict"),
                      ("status:0x40000002", "LibraryVerdict")])
    func gnutlsLibraryVerdict(value: String, check: String) throws {
        for chain in [Self.rsa, Self.ec] {
            try Self.expectRefused(chain, backend: "gnutls", fault: "gnutls_x509_trust_list_verify_crt2=\(value)",
                                   check: check, extra: ["--audit"])
        }
    }

    @Test("audit mode: a library that says yes never overrules the core's no (a host the leaf does not name)")
    func libraryYesNeverOverrules() throws {
        var wrongHost = Self.rsa
        wrongHost.host = "other.example"
        try Self.expectRefused(wrongHost, backend: "openssl", fault: "X509_verify_cert=1", check: "SSLHostname",
                               extra: ["--audit"])
        try Self.expectRefused(wrongHost, backend: "gnutls", fault: "gnutls_x509_trust_list_verify_crt2=status:0",
                               check: "SSLHostname", extra: ["--audit"])
        #expect(try Self.evaluate(Self.rsa, backend: "gnutls", fault: "gnutls_x509_trust_list_verify_crt2=0",
                                  extra: ["--audit"]).code == 0)
        // OpenSSL's "yes" counts only for the path it built: a 1 with no chain built is a refusal.
        try Self.expectRefused(Self.rsa, backend: "openssl", fault: "X509_verify_cert=1", check: "LibraryVerdict",
                               extra: ["--audit"])
    }
}
