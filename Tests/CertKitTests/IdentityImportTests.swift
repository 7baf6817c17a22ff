import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// The client-identity fixtures (the identity fixture set, Scripts/fixtures.sh --set identity).
enum IdentityFixtures {
    static let directory = FixtureLocator.fixtures.appendingPathComponent("identity")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func certificates(_ name: String) throws -> [Certificate] {
        try CertificateBundle.decode(bytes(name)).certificates
    }

    static let password = "certkit-test-password"
}

/// PKCS#12 and key-file import on every backend: the good identity, and each error case as one clear error.
@Suite("Identity import (PKCS#12, key files)")
struct IdentityImportTests {
    static let backends = BackendRegistry.standard.names

    private func importer(_ name: String) -> any IdentityImporter {
        BackendRegistry.standard.entry(named: name)!.identityImporter()
    }

    private func importP12(_ backend: String, _ file: String, password: String = IdentityFixtures.password)
        throws -> Result<Identity, IdentityError>
    {
        let bytes = try IdentityFixtures.bytes(file)
        do { return .success(try importer(backend).importPKCS12(bytes, password: password)) } catch {
            return .failure(error)
        }
    }

    /// The error importing `file` gives, nil when it imports.
    private func importError(_ backend: String, _ file: String, password: String = IdentityFixtures.password)
        throws -> IdentityError?
    {
        if case .failure(let error) = try importP12(backend, file, password: password) { return error }
        return nil
    }

    @Test("modern PKCS#12: leaf, intermediate and key", arguments: backends)
    func modern(backend: String) throws {
        let identity = try importP12(backend, "client.p12").get()
        let expected = try IdentityFixtures.certificates("client-chain.pem")
        #expect(identity.certificate == expected[0])
        #expect(identity.intermediates == [expected[1]])
        #expect(identity.certificates == expected)
        #expect(identity.privateKey.storage.backendName == backend)
        #expect(identity.privateKey.description == "private key RSA 2048 (not shown)")
    }

    @Test("printing an identity never shows key material", arguments: backends)
    func neverPrintsKey(backend: String) throws {
        let identity = try importP12(backend, "client.p12").get()
        let der = try identity.privateKey.storage.pkcs8DER()
        let base64 = der.withUnsafeBytes { Data($0) }.base64EncodedString()
        for text in ["\(identity)", String(reflecting: identity), "\(identity.privateKey)",
                     String(reflecting: identity.privateKey), String(describing: Mirror(reflecting: identity.privateKey).children.map(\.value))] {
            #expect(!text.contains(String(base64.prefix(24))), "\(text)")
            #expect(!text.contains("PRIVATE KEY"))
        }
        #expect("\(identity)".contains("CN=alice"))
    }

    @Test("wrong password", arguments: backends)
    func wrongPassword(backend: String) throws {
        #expect(try importError(backend, "client.p12", password: "nope") == .wrongPassword)
        #expect(try importError(backend, "client.p12", password: "") == .wrongPassword)
        #expect(try importError(backend, "client-legacy.p12", password: "nope") == .wrongPassword)
    }

    @Test("legacy RC2/3DES PKCS#12: OpenSSL 3 says what to do, GnuTLS imports it")
    func legacy() throws {
        let openssl = try importError("openssl", "client-legacy.p12")
        let algorithm = openssl?.detail
        guard openssl?.code == .legacyEncryption else {
            Issue.record("expected legacyEncryption, got \(openssl)")
            return
        }
        #expect(algorithm == "RC2-40-CBC")
        let message = IdentityError.legacyEncryption(algorithm: algorithm).description
        #expect(message.contains("RC2-40-CBC") && message.contains("legacy provider") && message.contains("import it with GnuTLS"))
        #expect(!message.contains("\n"))

        let gnutls = try importP12("gnutls", "client-legacy.p12").get()
        #expect(gnutls.certificates == (try IdentityFixtures.certificates("client-chain.pem")))
    }

    @Test("no key in the file", arguments: backends)
    func noKey(backend: String) throws {
        let error = try importError(backend, "client-nokey.p12")
        #expect(error?.code == IdentityError.Code.noKey, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("no private key in the file") == true)
    }

    @Test("identity errors compare and hash by their code alone, never by the library's words")
    func errorsCompareByCode() {
        let one = IdentityError(.malformed, "truncated"), other = IdentityError(.malformed, "bad tag")
        #expect(one == other && one.hashValue == other.hashValue)
        #expect(one != IdentityError(.library, "truncated"))
        #expect(IdentityError.noKey.code == .noKey && IdentityError.noCertificate.code == .noCertificate)
        #expect(IdentityError.wrongPassword.code == .wrongPassword && IdentityError.keyMismatch.code == .keyMismatch)
    }

    @Test("key that does not belong to the certificate", arguments: backends)
    func mismatch(backend: String) throws {
        let error = try importError(backend, "client-mismatch.p12")
        #expect(error == .keyMismatch, "\(String(describing: error))")
    }

    @Test("not a PKCS#12 file", arguments: backends)
    func malformed(backend: String) throws {
        let result = try importError(backend, "client.pem")
        guard result?.code == .malformed else {
            Issue.record("expected malformed, got \(result)")
            return
        }
    }

    @Test("certificate + key files: plain, encrypted, wrong password, wrong key", arguments: backends)
    func keyFiles(backend: String) throws {
        let chain = try IdentityFixtures.certificates("client-chain.pem")
        let plain = try importer(backend).importIdentity(
            certificates: chain, privateKey: IdentityFixtures.bytes("client.key"), password: nil)
        #expect(plain.certificates == chain)

        let encrypted = try importer(backend).importIdentity(
            certificates: chain, privateKey: IdentityFixtures.bytes("client-encrypted.key"),
            password: IdentityFixtures.password)
        #expect(encrypted.certificate == chain[0])

        #expect(throws: IdentityError.wrongPassword) {
            try importer(backend).importIdentity(
                certificates: chain, privateKey: IdentityFixtures.bytes("client-encrypted.key"), password: "nope")
        }
        #expect(throws: IdentityError.wrongPassword) {
            try importer(backend).importIdentity(
                certificates: chain, privateKey: IdentityFixtures.bytes("client-encrypted.key"), password: nil)
        }
        #expect(throws: IdentityError.keyMismatch) {
            try importer(backend).importIdentity(
                certificates: chain, privateKey: IdentityFixtures.bytes("other-client.key"), password: nil)
        }
        #expect(throws: IdentityError.noCertificate) {
            try importer(backend).importIdentity(
                certificates: [], privateKey: IdentityFixtures.bytes("client.key"), password: nil)
        }
    }

    @Test("a key exported by one backend imports into the other and still matches")
    func crossBackendKey() throws {
        let chain = try IdentityFixtures.certificates("client-chain.pem")
        for (from, to) in [("openssl", "gnutls"), ("gnutls", "openssl")] {
            let identity = try importP12(from, "client.p12").get()
            let der = try identity.privateKey.storage.pkcs8DER()
            let again = try importer(to).importIdentity(certificates: chain, privateKey: der, password: nil)
            #expect(again.privateKey.storage.backendName == to)
        }
    }
}
