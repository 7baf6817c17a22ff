import CertKit
import CertKitBackends
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

/// The iteration counts of a PKCS#12 file are bounded before either library sees it: the MAC, the encrypted
/// content, a shrouded key in the clear and a shrouded key inside an encrypted content (readable only after
/// decryption: in the only content, in a later one after a clear content, or in a nested SafeContents), each one
/// past ``Limits/maxPKCS12Iterations`` (the pkcs12 fixture set, Scripts/fixtures/certkit_fixtures/sets/pkcs12.py).
@Suite("PKCS#12 iteration counts: bounded before any key derivation")
struct PKCS12IterationBoundTests {
    static let backends = BackendRegistry.standard.names

    private func importer(_ backend: String, _ limits: Limits = .default) -> any IdentityImporter {
        backend == "openssl" ? OpenSSLIdentityImporter(limits: limits) : GnuTLSIdentityImporter(limits: limits)
    }

    private func outcome(_ backend: String, _ file: String, _ limits: Limits = .default) throws -> Result<Identity, IdentityError> {
        let bytes = try IdentityFixtures.bytes(file)
        do { return .success(try importer(backend, limits).importPKCS12(bytes, password: IdentityFixtures.password)) } catch {
            return .failure(error)
        }
    }

    @Test("a normal file (every count 2048, the key shrouded inside the encrypted content) imports, DER or BER",
          arguments: backends, ["bounds-control.p12", "bounds-control-ber.p12"])
    func control(backend: String, file: String) throws {
        let identity = try outcome(backend, file).get()
        #expect(identity.certificates == (try IdentityFixtures.certificates("client-chain.pem")))
        // The core read the BER file's counts too.
        var limits = Limits.default
        limits.maxPKCS12Iterations = 2047
        guard case .failure(let error) = try outcome(backend, file, limits), error.code == .limitExceeded else {
            Issue.record("\(backend) \(file): a count of 2048 passes a bound of 2047")
            return
        }
    }

    @Test("one count past the bound is refused, wherever it is", arguments: backends, [
        ("bounds-mac-over.p12", "the PKCS#12 MAC"), ("bounds-content-over.p12", "an encrypted content"),
        ("bounds-clear-key-over.p12", "a shrouded key"), ("bounds-inner-key-over.p12", "a shrouded key"),
        // In an encrypted content that comes after a clear one.
        ("bounds-late-key-over.p12", "a shrouded key"),
    ])
    func overTheBound(backend: String, file: (name: String, what: String)) throws {
        let result = try outcome(backend, file.name)
        guard case .failure(let error) = result, error.code == .limitExceeded, let reason = error.detail else {
            Issue.record("\(backend) \(file.name): \(result)")
            return
        }
        #expect(reason == "\(file.what) asks for 1000001 key-derivation iterations, more than 1000000 (Limits.maxPKCS12Iterations)")
        let bytes = try IdentityFixtures.bytes(file.name)
        #expect(throws: IdentityError.limitExceeded(reason)) {
            try importer(backend).pkcs12Certificates(bytes, password: IdentityFixtures.password)
        }
    }

    @Test("the same layouts with every count 2048 import: a clear content first, the key in a later encrypted one",
          arguments: backends)
    func laterEncryptedContent(backend: String) throws {
        let identity = try outcome(backend, "bounds-late-control.p12").get()
        #expect(identity.certificates == (try IdentityFixtures.certificates("client-chain.pem")))
    }

    @Test("a shrouded key in a nested SafeContents inside the encrypted content: bounded on OpenSSL, never derived by GnuTLS",
          arguments: backends)
    func nestedInEncryptedContent(backend: String) throws {
        let start = ContinuousClock.now
        let over = try outcome(backend, "bounds-nested-key-over.p12")
        let control = try outcome(backend, "bounds-nested-control.p12")
        #expect(ContinuousClock.now - start < workBound(seconds: 2), "\(backend): the 1,000,001 iterations were not derived")
        if backend == "openssl" {
            // PKCS12_parse follows the safeContentsBag: the key's count is read after decryption and refused.
            #expect(error(over) == .limitExceeded(
                "a shrouded key asks for 1000001 key-derivation iterations, more than 1000000 (Limits.maxPKCS12Iterations)"))
            #expect(throws: IdentityError.limitExceeded(
                "a shrouded key asks for 1000001 key-derivation iterations, more than 1000000 (Limits.maxPKCS12Iterations)")) {
                try importer(backend).pkcs12Certificates(IdentityFixtures.bytes("bounds-nested-key-over.p12"),
                                                        password: IdentityFixtures.password)
            }
            #expect(try control.get().certificates == (try IdentityFixtures.certificates("client-chain.pem")))
        } else {
            // GnuTLS 3.7 reads a safeContentsBag as a bag of unknown type: it finds no key in either file (the same
            // refusal whatever the nested key's count) and derives none.
            #expect(error(over) == .noKey)
            #expect(error(control) == .noKey)
        }
    }

    @Test("a file without password (OpenSSL): the shrouded key inside the encrypted content is bounded after the NULL-password MAC")
    func noPasswordInnerKey() throws {
        // OpenSSL's reading of an empty password: the MAC verifies with none (NULL), so the contents are decrypted
        // with none before the shrouded keys' counts are read. (GnuTLS tries "" and reports the wrong password.)
        let backend = "openssl"
        // nopass-inner-key-over.p12: MAC and content keyed with no (NULL) password, 2048 iterations each; the shrouded
        // key inside the content asks for 1,000,001 (Scripts/fixtures/certkit_fixtures/sets/pkcs12.py).
        let bytes = try IdentityFixtures.bytes("nopass-inner-key-over.p12")
        let none = SecretBytes(copying: [])
        #expect(throws: IdentityError.limitExceeded(
            "a shrouded key asks for 1000001 key-derivation iterations, more than 1000000 (Limits.maxPKCS12Iterations)"),
            "\(backend)") {
            try importer(backend).importPKCS12(bytes, password: none)
        }
        #expect(throws: IdentityError.limitExceeded(
            "a shrouded key asks for 1000001 key-derivation iterations, more than 1000000 (Limits.maxPKCS12Iterations)"),
            "\(backend)") {
            try importer(backend).pkcs12Certificates(bytes, password: none)
        }
        // The MAC is keyed with no password: a password does not verify it, so the refusal above came after it.
        #expect(throws: IdentityError.wrongPassword, "\(backend)") {
            try importer(backend).importPKCS12(bytes, password: IdentityFixtures.password)
        }
    }

    @Test("the issue's file (MAC 2^31 - 1 iterations) is refused at once", arguments: backends)
    func hugeMAC(backend: String) throws {
        let start = ContinuousClock.now
        let result = try outcome(backend, "bounds-mac-huge.p12")
        #expect(ContinuousClock.now - start < workBound(seconds: 2))
        guard case .failure(let error) = result, error.code == .limitExceeded, let reason = error.detail else {
            Issue.record("\(backend): \(result)")
            return
        }
        #expect(reason.hasPrefix("the PKCS#12 MAC asks for 2147483647 key-derivation iterations"))
    }

    @Test("the bounds are exact: each count and their sum, the key's read after decryption", arguments: backends)
    func exactBounds(backend: String) throws {
        var limits = Limits.default
        limits.maxPKCS12Iterations = 2048
        limits.maxPKCS12TotalIterations = 3 * 2048
        #expect(throws: Never.self) { try outcome(backend, "bounds-control.p12", limits).get() }
        limits.maxPKCS12Iterations = 2047
        guard case .failure(let error) = try outcome(backend, "bounds-control.p12", limits), error.code == .limitExceeded, let each = error.detail else {
            Issue.record("\(backend): a count of 2048 passes a bound of 2047")
            return
        }
        #expect(each.contains("the PKCS#12 MAC asks for 2048"))
        limits.maxPKCS12Iterations = 2048
        limits.maxPKCS12TotalIterations = 3 * 2048 - 1  // the MAC and the content fit: the inner key does not
        guard case .failure(let error) = try outcome(backend, "bounds-control.p12", limits), error.code == .limitExceeded, let sum = error.detail else {
            Issue.record("\(backend): a sum of 6144 passes a bound of 6143")
            return
        }
        #expect(sum.contains("(Limits.maxPKCS12TotalIterations)"))
    }

    @Test("the PKCS#12 PBE count (RC2/3DES of a legacy file) is bounded too, before OpenSSL's legacy refusal", arguments: backends)
    func legacyCounts(backend: String) throws {
        var limits = Limits.default
        limits.maxPKCS12Iterations = 2047  // the legacy file's MAC is SHA-1 with 2048 iterations
        limits.maxPKCS12TotalIterations = .max
        guard case .failure(let error) = try outcome(backend, "client-legacy.p12", limits), error.code == .limitExceeded, let mac = error.detail else {
            Issue.record("\(backend): the legacy file's MAC count passes a bound of 2047")
            return
        }
        #expect(mac.hasPrefix("the PKCS#12 MAC asks for 2048"))
        // With the MAC's count made 2047 (INTEGER 2048 is the MacData's last field, the file's last four bytes), the
        // PKCS#12 PBE count of the encrypted certificates (RC2-40, 2048) is refused.
        var bytes = try IdentityFixtures.bytes("client-legacy.p12")
        #expect(bytes.suffix(4).elementsEqual([0x02, 0x02, 0x08, 0x00]))
        bytes[bytes.count - 2] = 0x07
        bytes[bytes.count - 1] = 0xFF
        let importer = importer(backend, limits)
        #expect(throws: IdentityError.limitExceeded(
            "an encrypted content asks for 2048 key-derivation iterations, more than 2047 (Limits.maxPKCS12Iterations)")) {
            try importer.importPKCS12(bytes, password: IdentityFixtures.password)
        }
    }

    @Test("an encrypted PKCS#8 key file (PEM or DER) is bounded the same way", arguments: backends)
    func keyFiles(backend: String) throws {
        let certificates = try IdentityFixtures.certificates("client-chain.pem")
        for file in ["bounds-key-over.key", "bounds-key-over.der"] {
            let key = try IdentityFixtures.bytes(file)
            #expect(throws: IdentityError.limitExceeded(
                "the encrypted private key asks for 1000001 key-derivation iterations, more than 1000000 (Limits.maxPKCS12Iterations)"),
                "\(backend) \(file)") {
                try importer(backend).importIdentity(certificates: certificates, privateKey: key, password: IdentityFixtures.password)
            }
        }
        // The key files OpenSSL writes (PBES2, 2048 iterations) and plain keys import as before.
        for file in ["client-encrypted.key", "client.key"] {
            let key = try IdentityFixtures.bytes(file)
            #expect(throws: Never.self, "\(backend) \(file)") {
                try importer(backend).importIdentity(certificates: certificates, privateKey: key, password: IdentityFixtures.password)
            }
        }
    }

    /// An EncryptedPrivateKeyInfo (PBES2, PBKDF2, AES-256-CBC) whose iteration count is the INTEGER `count`.
    static func encryptedKeyInfo(count: [UInt8]) -> [UInt8] {
        let t = DERBuilder.tlv
        let pbes2: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0D]
        let pbkdf2: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0C]
        let aes256CBC: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2A]
        let kdf = DERBuilder.sequence([t(0x06, pbkdf2), DERBuilder.sequence([t(0x04, Array(repeating: 1, count: 8)), t(0x02, count)])])
        let scheme = DERBuilder.sequence([t(0x06, aes256CBC), t(0x04, Array(repeating: 2, count: 16))])
        let algorithm = DERBuilder.sequence([t(0x06, pbes2), DERBuilder.sequence([kdf, scheme])])
        return DERBuilder.sequence([algorithm, t(0x04, Array(repeating: 3, count: 48))])
    }

    @Test("a count of eight significant bytes (2^56 and up, 2^63 with the top bit set) is past the bound, never read as negative",
          arguments: backends)
    func countsPastSevenBytes(backend: String) throws {
        let certificates = try IdentityFixtures.certificates("client-chain.pem")
        for count: [UInt8] in [[0x00, 0x80, 0, 0, 0, 0, 0, 0, 0], [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
                               [0x01, 0, 0, 0, 0, 0, 0, 0], [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]] {
            #expect(throws: IdentityError.limitExceeded(
                "the encrypted private key asks for more than 2^56 key-derivation iterations, more than 1000000 (Limits.maxPKCS12Iterations)"),
                "\(backend) \(count)") {
                try importer(backend).importIdentity(
                    certificates: certificates, privateKey: Self.encryptedKeyInfo(count: count), password: IdentityFixtures.password)
            }
        }
    }

    @Test("files written by OpenSSL still import: modern, certificates only, legacy on GnuTLS", arguments: backends)
    func existingFiles(backend: String) throws {
        #expect(throws: Never.self) { try outcome(backend, "client.p12").get() }
        #expect(throws: Never.self) {
            try importer(backend).pkcs12Certificates(IdentityFixtures.bytes("client-nokey.p12"), password: IdentityFixtures.password)
        }
        if backend == "gnutls" { #expect(throws: Never.self) { try outcome(backend, "client-legacy.p12").get() } }
    }

    @Test("what is not understood is refused: signedData integrity, unknown content, scrypt", arguments: backends)
    func notUnderstood(backend: String) throws {
        let control = try IdentityFixtures.bytes("bounds-control.p12")
        // The authSafe's content type id-data (…07 01) made id-signedData (…07 02).
        let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        let first = try #require(firstRange(of: dataOID, in: control))
        var signed = control
        signed[first.upperBound - 1] = 0x02
        #expect(throws: IdentityError.malformed("public-key integrity (signedData) is not supported")) {
            try importer(backend).importPKCS12(signed, password: IdentityFixtures.password)
        }
        // PBKDF2 (…05 0C) made scrypt's OID length-for-length impossible; an unknown PBES2 KDF instead (…05 0B).
        let pbkdf2: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0C]
        let kdf = try #require(firstRange(of: pbkdf2, in: control))
        var other = control
        other[kdf.upperBound - 1] = 0x0B
        #expect(throws: IdentityError.malformed("an encrypted content derives its key with 1.2.840.113549.1.5.11, not PBKDF2")) {
            try importer(backend).importPKCS12(other, password: IdentityFixtures.password)
        }
    }

    private func error(_ result: Result<Identity, IdentityError>) -> IdentityError? {
        guard case .failure(let error) = result else { return nil }
        return error
    }

    private func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start..<start + needle.count
        }
        return nil
    }
}
