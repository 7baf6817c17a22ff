import CertKit
import CertKitBackends
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Testing

/// What the core reads of a PKCS#12 file before any password (``PKCS12KeyDerivationBudget/check(pfx:)``), on files
/// built here: nested SafeContents count toward the total like the others, and a PBMAC1 MAC (RFC 9579) is bounded by
/// its PBKDF2 count. Only the structure matters to the walk; the MACs and ciphertexts are filler, so nothing past the
/// walk could open these files.
@Suite("PKCS#12 structure walk: nested SafeContents and PBMAC1")
struct PKCS12StructureWalkTests {
    static let backends = BackendRegistry.standard.names

    private static let t = DERBuilder.tlv
    private static let data: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    private static let shroudedKeyBag: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x0A, 0x01, 0x02]
    private static let safeContentsBag: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x0A, 0x01, 0x06]
    private static let pbmac1: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0E]
    private static let pbkdf2: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0C]
    private static let hmacSHA256: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x09]
    private static let sha256: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
    private static let null: [UInt8] = [0x05, 0x00]

    /// The contents of a DER INTEGER holding `value` (positive).
    static func integer(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        } while rest > 0
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return bytes
    }

    /// A shrouded key bag (PBES2, PBKDF2 `count`).
    static func shroudedKey(_ count: Int) -> [UInt8] {
        DERBuilder.sequence([t(0x06, shroudedKeyBag), t(0xA0, PKCS12IterationBoundTests.encryptedKeyInfo(count: integer(count)))])
    }

    /// A safeContentsBag: `bags` as a nested SafeContents.
    static func nested(_ bags: [[UInt8]]) -> [UInt8] {
        DERBuilder.sequence([t(0x06, safeContentsBag), t(0xA0, DERBuilder.sequence(bags))])
    }

    /// A MacData of the PKCS#12 KDF (HMAC-SHA-256) with `count` iterations.
    static func mac(_ count: Int) -> [UInt8] {
        let digest = DERBuilder.sequence([DERBuilder.sequence([t(0x06, sha256), null]), t(0x04, Array(repeating: 4, count: 32))])
        return DERBuilder.sequence([digest, t(0x04, Array(repeating: 5, count: 16)), t(0x02, integer(count))])
    }

    /// A MacData of PBMAC1 (RFC 9579 §3: PBKDF2-HMAC-SHA-256 with `count` iterations, HMAC-SHA-256; the MacData's own
    /// iterations 1).
    static func pbmac1MAC(_ count: Int) -> [UInt8] {
        let hmac = DERBuilder.sequence([t(0x06, hmacSHA256), null])
        let kdf = DERBuilder.sequence([
            t(0x06, pbkdf2),
            DERBuilder.sequence([t(0x04, Array(repeating: 6, count: 16)), t(0x02, integer(count)), t(0x02, [32]), hmac]),
        ])
        let algorithm = DERBuilder.sequence([t(0x06, pbmac1), DERBuilder.sequence([kdf, hmac])])
        let digest = DERBuilder.sequence([algorithm, t(0x04, Array(repeating: 4, count: 32))])
        return DERBuilder.sequence([digest, t(0x04, Array(repeating: 5, count: 16)), t(0x02, [1])])
    }

    /// A PFX whose AuthenticatedSafe is one clear (data) content holding `bags`, with `macData`.
    static func pfx(_ bags: [[UInt8]], macData: [UInt8]) -> [UInt8] {
        let content = DERBuilder.sequence([t(0x06, data), t(0xA0, t(0x04, DERBuilder.sequence(bags)))])
        let authSafe = DERBuilder.sequence([t(0x06, data), t(0xA0, t(0x04, DERBuilder.sequence([content])))])
        return DERBuilder.sequence([t(0x02, [3]), authSafe, macData])
    }

    private func walk(_ pfx: [UInt8], _ limits: Limits = .default) -> Result<Int, IdentityError> {
        var budget = PKCS12KeyDerivationBudget(limits: limits)
        do { try budget.check(pfx: pfx) } catch { return .failure(error) }
        return .success(budget.total)
    }

    private func importer(_ backend: String) -> any IdentityImporter {
        backend == "openssl" ? OpenSSLIdentityImporter() : GnuTLSIdentityImporter()
    }

    static let totalRefusal = IdentityError.limitExceeded(
        "the PKCS#12 file asks for more than 3000000 key-derivation iterations in all (Limits.maxPKCS12TotalIterations)")

    /// Three shrouded keys of 1,000,000 iterations each (every one at the bound), all of them in nested SafeContents
    /// (two in one safeContentsBag, one two levels down), and the MAC's 2048: 3,002,048 in all.
    static let nestedKeys = pfx([
        nested([shroudedKey(1_000_000), shroudedKey(1_000_000)]),
        nested([nested([shroudedKey(1_000_000)])]),
    ], macData: mac(2048))

    @Test("shrouded keys in nested SafeContents count toward the total: three of 1,000,000 and the MAC are refused")
    func nestedKeysCountTowardTheTotal() {
        #expect(walk(Self.nestedKeys) == .failure(Self.totalRefusal))
        // The sum is every count, nested or not: exactly 3,002,048 fits a total bound of 3,002,048, not one less.
        var limits = Limits.default
        limits.maxPKCS12TotalIterations = 3_002_048
        #expect(walk(Self.nestedKeys, limits) == .success(3_002_048))
        limits.maxPKCS12TotalIterations = 3_002_047
        #expect(walk(Self.nestedKeys, limits) == .failure(.limitExceeded(
            "the PKCS#12 file asks for more than 3002047 key-derivation iterations in all (Limits.maxPKCS12TotalIterations)")))
        // A key beside the nested bags and the nested ones add up alike.
        let mixed = Self.pfx([Self.shroudedKey(700), Self.nested([Self.shroudedKey(500), Self.nested([Self.shroudedKey(300)])])],
                             macData: Self.mac(2))
        #expect(walk(mixed) == .success(1502))
    }

    @Test("a file whose nested shrouded keys exceed the total is refused before the library opens it", arguments: backends)
    func nestedKeysRefusedByBothBackends(backend: String) {
        #expect(throws: Self.totalRefusal, "\(backend)") {
            try importer(backend).importPKCS12(Self.nestedKeys, password: IdentityFixtures.password)
        }
        #expect(throws: Self.totalRefusal, "\(backend)") {
            try importer(backend).pkcs12Certificates(Self.nestedKeys, password: IdentityFixtures.password)
        }
    }

    @Test("a PBMAC1 MAC's PBKDF2 count is bounded: 1,000,000 passes the walk, 1,000,001 is refused")
    func pbmac1Count() {
        let bags = [Self.shroudedKey(2048)]
        // At the bound: accepted, and counted (with the MacData's own iterations, 1, and the key's 2048).
        #expect(walk(Self.pfx(bags, macData: Self.pbmac1MAC(1_000_000))) == .success(1_000_000 + 1 + 2048))
        #expect(walk(Self.pfx(bags, macData: Self.pbmac1MAC(1_000_001))) == .failure(.limitExceeded(
            "the PKCS#12 MAC (PBMAC1) asks for 1000001 key-derivation iterations, more than 1000000 (Limits.maxPKCS12Iterations)")))
        // Its count is part of the total too.
        var limits = Limits.default
        limits.maxPKCS12TotalIterations = 1_000_000 + 2048
        #expect(walk(Self.pfx(bags, macData: Self.pbmac1MAC(1_000_000)), limits) == .failure(.limitExceeded(
            "the PKCS#12 file asks for more than 1002048 key-derivation iterations in all (Limits.maxPKCS12TotalIterations)")))
    }

    @Test("a PBMAC1 MAC past the bound is refused before the library opens the file", arguments: backends)
    func pbmac1RefusedByBothBackends(backend: String) {
        let file = Self.pfx([Self.shroudedKey(2048)], macData: Self.pbmac1MAC(1_000_001))
        let refusal = IdentityError.limitExceeded(
            "the PKCS#12 MAC (PBMAC1) asks for 1000001 key-derivation iterations, more than 1000000 (Limits.maxPKCS12Iterations)")
        #expect(throws: refusal, "\(backend)") {
            try importer(backend).importPKCS12(file, password: IdentityFixtures.password)
        }
        #expect(throws: refusal, "\(backend)") {
            try importer(backend).pkcs12Certificates(file, password: IdentityFixtures.password)
        }
    }
}
