@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// The key bounds of ``Limits``: RSA exponents odd, 3 to 64 bits; RSA moduli at most 16,384 bits;
/// DSA p at most 10,000 bits, q of 160/224/256 bits, 1 < g, y < p. A key beyond them is a `certkit.spki-encoding`
/// key problem, and nothing it signs is handed to a library: the DoS chain of the issue (32 junk intermediates with
/// 16,384-bit moduli and 16,383-bit exponents) ends fast with a key failure on both backends.
@Suite("Key bounds: RSA and DSA parameters refused before any verification")
struct KeyBoundsTests {
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        var length: [UInt8] = []
        if count < 0x80 {
            length = [UInt8(count)]
        } else {
            var value = count
            while value > 0 {
                length.insert(UInt8(value & 0xFF), at: 0)
                value >>= 8
            }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + content
    }

    /// A positive INTEGER of `bits` bits, all ones except the bytes below (odd unless `even`).
    static func integer(bits: Int, even: Bool = false) -> [UInt8] {
        var magnitude = [UInt8](repeating: 0xA5, count: (bits + 7) / 8)
        let top = bits % 8 == 0 ? 8 : bits % 8
        magnitude[0] = UInt8((1 << top) - 1) & 0xFF | UInt8(1 << (top - 1))
        magnitude[magnitude.count - 1] = even ? 0x02 : 0x03
        return tlv(0x02, (magnitude[0] & 0x80 != 0 ? [0] : []) + magnitude)
    }

    static func integer(_ value: UInt64) -> [UInt8] {
        var bytes = withUnsafeBytes(of: value.bigEndian, Array.init).drop { $0 == 0 }.map { $0 }
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    static func rsa(modulus: [UInt8], exponent: [UInt8]) throws -> PublicKeyInfo {
        let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00]
        return try decode(tlv(0x30, tlv(0x30, rsaEncryption) + tlv(0x03, [0] + tlv(0x30, modulus + exponent))))
    }

    static func dsa(p: [UInt8], q: [UInt8], g: [UInt8], y: [UInt8]) throws -> PublicKeyInfo {
        let dsaOID: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x38, 0x04, 0x01]
        return try decode(tlv(0x30, tlv(0x30, dsaOID + tlv(0x30, p + q + g)) + tlv(0x03, [0] + y)))
    }

    static func decode(_ spki: [UInt8]) throws -> PublicKeyInfo {
        try DERReader.read(spki) { (reader) throws(CertificateDecodingError) -> PublicKeyInfo in
            try PublicKeyParser.parse(reader.read(DERTag.sequence, "subjectPublicKeyInfo"))
        }
    }

    @Test("RSA exponents: odd, 3 to 64 bits")
    func rsaExponents() throws {
        let modulus = Self.integer(bits: 2048)
        for (exponent, accepted) in [(UInt64(3), true), (65537, true), (UInt64.max, true), (1, false), (2, false),
                                     (4, false), (65538, false), (UInt64.max - 1, false)] {
            let key = try Self.rsa(modulus: modulus, exponent: Self.integer(exponent))
            #expect((key.encodingProblem == nil) == accepted, "e = \(exponent): \(key.encodingProblem ?? "accepted")")
        }
        let long = try Self.rsa(modulus: modulus, exponent: Self.integer(bits: 65))
        #expect(long.encodingProblem?.contains("Limits.maxRSAExponentBits") == true)
        let huge = try Self.rsa(modulus: modulus, exponent: Self.integer(bits: 16383))
        #expect(huge.encodingProblem?.contains("Limits.maxRSAExponentBits") == true)
    }

    @Test("RSA moduli: at most 16384 bits")
    func rsaModuli() throws {
        let e = Self.integer(65537)
        #expect(try Self.rsa(modulus: Self.integer(bits: 16384), exponent: e).encodingProblem == nil)
        let over = try Self.rsa(modulus: Self.integer(bits: 16385), exponent: e)
        #expect(over.encodingProblem?.contains("Limits.maxRSAModulusBits") == true)
        #expect(over.algorithm == .rsa(modulusBits: 16385))
    }

    @Test("DSA: p at most 10000 bits, q of 160/224/256 bits, 1 < g, y < p")
    func dsaParameters() throws {
        let p = Self.integer(bits: 2048), q = Self.integer(bits: 256), g = Self.integer(bits: 2040), y = Self.integer(bits: 2040)
        #expect(try Self.dsa(p: p, q: q, g: g, y: y).encodingProblem == nil)
        #expect(try Self.dsa(p: Self.integer(bits: 10000), q: q, g: g, y: y).encodingProblem == nil)
        #expect(try Self.dsa(p: Self.integer(bits: 10001), q: q, g: g, y: y).encodingProblem?.contains("Limits.maxDSAPrimeBits") == true)
        for bits in [160, 224, 256] {
            #expect(try Self.dsa(p: p, q: Self.integer(bits: bits), g: g, y: y).encodingProblem == nil, "q \(bits)")
        }
        for bits in [159, 255, 257, 512] {
            #expect(try Self.dsa(p: p, q: Self.integer(bits: bits), g: g, y: y).encodingProblem != nil, "q \(bits)")
        }
        #expect(try Self.dsa(p: p, q: q, g: Self.integer(1), y: y).encodingProblem != nil, "g = 1")
        #expect(try Self.dsa(p: p, q: q, g: Self.integer(2), y: y).encodingProblem == nil, "g = 2")
        #expect(try Self.dsa(p: p, q: q, g: p, y: y).encodingProblem != nil, "g = p")
        #expect(try Self.dsa(p: p, q: q, g: g, y: Self.integer(bits: 2049)).encodingProblem != nil, "y > p")
        #expect(try Self.dsa(p: p, q: q, g: g, y: Self.integer(1)).encodingProblem != nil, "y = 1")
        #expect(try Self.dsa(p: Self.integer(bits: 2048, even: true), q: q, g: g, y: y).encodingProblem != nil, "even p")
    }

    /// CRLs and OCSP responses go through the same verification (`PathSignatureCheck.verify`): a refused key is
    /// refused there before any library sees the signature.
    @Test("a signature by a refused key is never handed to the library", arguments: BackendRegistry.standard.names)
    func verifyRefusesTheKey(backend: String) throws {
        let key = try Self.rsa(modulus: Self.integer(bits: 16384), exponent: Self.integer(bits: 16383))
        let input = SignatureInput(
            scheme: .rsaPKCS1(.sha256), signedBytes: Array("signed".utf8), signature: [UInt8](repeating: 0x5A, count: 2048),
            signerKey: key)
        let verdict = try PathSignatureCheck.verify(
            input, backend: try #require(BackendRegistry.standard.backend(named: backend)))
        #expect(verdict?.hasPrefix("the signer's key is refused: the RSA public exponent is longer than 64 bits") == true,
                "\(backend): \(verdict ?? "valid")")
    }

    /// The issue's chain (attacks-key-bounds-junk-issuers): both backends, second opinion on, finish fast with the
    /// junk intermediate's key failure.
    @Test("the junk-intermediates DoS chain ends fast with a key failure", arguments: BackendRegistry.standard.names)
    func junkIssuers(backend: String) throws {
        let scenario = try #require(Fixtures.scenarios.first { $0.name == "attacks-key-bounds-junk-issuers" })
        let evaluator = TrustEvaluator(backend: try #require(BackendRegistry.standard.backend(named: backend)))
        let evaluation = try scenario.makeEvaluation()
        let start = ContinuousClock.now
        let report = evaluator.evaluate(evaluation)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < workBound(seconds: 3), "\(backend): \(elapsed)")
        #expect(report.result == .fatalTrustFailure, "\(backend): \(report.result)")
        #expect(report.checks.count == 2 && report.checks[1].contains(.weakKeySize), "\(backend): \(report.checks)")
    }
}
