@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// SubjectPublicKeyInfo variants of a genuine P-256 signer key, decoded by the core (so each carries the
/// `encodingProblem` the core gives it) and handed to both backends: no malformed key verifies, and the backends
/// agree on every variant. OpenSSL builds the keys the core finds no problem with from a per-curve group
/// template (`EVP_PKEY_set1_encoded_public_key`), the others with `d2i_PUBKEY`.
@Suite("EC signer keys: malformed SubjectPublicKeyInfo variants on both backends")
struct ECKeyEncodingAttackTests {
    static let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    static let p256: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    static let p384: [UInt8] = [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]
    static let p521: [UInt8] = [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23]
    /// The P-256 field prime.
    static let prime = bytes("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")

    static func bytes(_ hex: String) -> [UInt8] { Hex.decode(hex)! }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        let length: [UInt8] = count < 0x80 ? [UInt8(count)] : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return [tag] + length + content
    }

    /// `SEQUENCE { SEQUENCE { ecPublicKey, curve }, BIT STRING point }`.
    static func spki(curve: [UInt8], point: [UInt8]) -> [UInt8] {
        tlv(0x30, tlv(0x30, ecPublicKey + curve) + tlv(0x03, [0x00] + point))
    }

    /// The core's reading of `spki`.
    static func decode(_ spki: [UInt8]) throws -> PublicKeyInfo {
        try DERReader.read(spki) { (reader) throws(CertificateDecodingError) -> PublicKeyInfo in
            try PublicKeyParser.parse(reader.read(DERTag.sequence, "subjectPublicKeyInfo"))
        }
    }

    /// p - value, for a 32-byte big-endian value below p.
    static func negated(_ value: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            var digit = Int(prime[index]) - Int(value[index]) - borrow
            borrow = digit < 0 ? 1 : 0
            if digit < 0 { digit += 256 }
            result[index] = UInt8(digit)
        }
        return result
    }

    /// "valid", or "refused: ..." (an invalid verdict or a backend error).
    static func verdict(_ backend: any TrustBackend, _ input: SignatureInput) -> String {
        do {
            switch try backend.verifySignature(input) {
            case .valid: return "valid"
            case .invalid: return "refused"
            }
        } catch {
            return "refused"
        }
    }

    /// A genuine link signed by a P-256 key of the fixtures, and that key's X and Y; `evenY`: the first whose Y is even
    /// (the fixtures' keys are seeded, so which of them that is is fixed, but it is looked up rather than assumed).
    static func p256Link(evenY: Bool = false) throws -> (link: SignatureInput, x: [UInt8], y: [UInt8]) {
        let links = try SignerKeyTests.links("valid-chain-ec/chain.pem", "valid-chain-ec/root-ec.pem")
            + SignerKeyTests.links("leaf-anchor-self-signed-ec/chain.pem", "leaf-anchor-self-signed-ec/leaf-selfsigned-ec.pem")
        for link in links where link.signerKey.algorithm == .ec(curve: "prime256v1", bits: 256) {
            let spki = link.signerKey.derEncoded
            let point = Array(spki.suffix(65))
            try #require(point.first == 0x04 && spki == Self.spki(curve: p256, point: point), "the fixture is a plain P-256 SPKI")
            if !evenY || point[64] & 1 == 0 {
                return (link, Array(point[1...32]), Array(point[33...64]))
            }
        }
        throw FixtureMissing(evenY ? "no P-256 signer key with an even Y among the EC fixtures" : "no P-256 signer key")
    }

    struct FixtureMissing: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("each variant: never valid unless it is the genuine key's uncompressed point, and the backends agree")
    func variants() throws {
        let (link, x, y) = try Self.p256Link()
        let yOdd = y[31] & 1 == 1
        var offCurve = y
        offCurve[31] ^= 0x01
        let variants: [(String, [UInt8], [UInt8])] = [
            ("genuine", Self.p256, [0x04] + x + y),
            ("off-curve y", Self.p256, [0x04] + x + offCurve),
            ("negated y (on the curve, another key)", Self.p256, [0x04] + x + Self.negated(y)),
            ("(0, 0)", Self.p256, [0x04] + [UInt8](repeating: 0, count: 64)),
            ("x = p", Self.p256, [0x04] + Self.prime + y),
            ("y = p", Self.p256, [0x04] + x + Self.prime),
            ("all 0xFF", Self.p256, [0x04] + [UInt8](repeating: 0xFF, count: 64)),
            ("point at infinity 00", Self.p256, [0x00]),
            ("empty point", Self.p256, []),
            ("compressed, right parity", Self.p256, [yOdd ? 0x03 : 0x02] + x),
            ("compressed, wrong parity", Self.p256, [yOdd ? 0x02 : 0x03] + x),
            ("hybrid, right parity", Self.p256, [yOdd ? 0x07 : 0x06] + x + y),
            ("hybrid, wrong parity", Self.p256, [yOdd ? 0x06 : 0x07] + x + y),
            ("one byte short", Self.p256, Array(([0x04] + x + y).dropLast())),
            ("one byte long", Self.p256, [0x04] + x + y + [0x00]),
            ("leading zero byte", Self.p256, [0x00, 0x04] + x + y),
            ("P-256 point under the P-384 OID", Self.p384, [0x04] + x + y),
            ("P-256 point padded to P-384 size", Self.p384, [0x04] + [UInt8](repeating: 0, count: 16) + x + [UInt8](repeating: 0, count: 16) + y),
            ("P-256 point under the P-521 OID", Self.p521, [0x04] + x + y),
        ]
        let backends = BackendRegistry.standard.entries.flatMap { entry in
            [0, 256].map { (name: "\(entry.name)/\($0)", backend: entry.backend(certificateCacheCapacity: $0)) }
        }
        #expect(backends.count >= 4, "both backends, cache on and off")
        for (name, curve, point) in variants {
            var input = link
            input.signerKey = try Self.decode(Self.spki(curve: curve, point: point))
            let verdicts = backends.map { Self.verdict($0.backend, input) }
            let expected = name == "genuine" ? "valid" : "refused"
            for (backend, verdict) in zip(backends, verdicts) {
                #expect(verdict == expected, "\(backend.name) \(name) (core: \(input.signerKey.encodingProblem ?? "no problem"))")
            }
        }
    }

    /// The point-form check reads past the unused-bits count (which the core refuses on its own), so a key that
    /// OpenSSL's decoder reads as before still verifies as before, on both backends alike. (With 1 unused bit and
    /// an even last byte OpenSSL's clearing of the unused bits changes nothing; the differential
    /// sample's `key.spki:unused-bits` cases where it does change the point are a known disagreement.)
    @Test("a genuine uncompressed point under one unused bit: the backends agree, as before the point-form check")
    func unusedBit() throws {
        let (link, x, y) = try Self.p256Link(evenY: true)
        try #require(y[31] & 1 == 0, "the key's last byte is even")
        var input = link
        input.signerKey = try Self.decode(
            Self.tlv(0x30, Self.tlv(0x30, Self.ecPublicKey + Self.p256) + Self.tlv(0x03, [1, 0x04] + x + y)))
        #expect(input.signerKey.encodingProblem != nil, "the core names the problem")
        let verdicts = BackendRegistry.standard.entries.map { Self.verdict($0.backend(certificateCacheCapacity: 0), input) }
        #expect(verdicts.count >= 2 && Set(verdicts) == ["valid"], "\(verdicts)")
    }

    /// For the point at infinity every signature whose r is x(u1·G) verifies (u2·Q vanishes): this one was made
    /// with no private key at all (k = 0x1234567, r = x(kG), s = e/k) over `message`.
    static let message = Array("certkit point at infinity".utf8)
    static let forged = bytes(
        "30450220088bb9ff22ab291a74c86fc677ba897baadee370cc6129b82d170ba3fc26415c022100b263c0e49eb51ac0585b5f14d8469a853f8f0bc3468c93b5188db50a5831ab41")

    @Test("a signature forged for the point at infinity (SPKI point 00) verifies on no backend")
    func infinityForgery() throws {
        let key = try Self.decode(Self.spki(curve: Self.p256, point: [0x00]))
        #expect(key.encodingProblem != nil, "the core names the problem")
        let input = SignatureInput(scheme: .ecdsa(.sha256), signedBytes: Self.message, signature: Self.forged, signerKey: key)
        for entry in BackendRegistry.standard.entries {
            for capacity in [0, 256] {
                #expect(Self.verdict(entry.backend(certificateCacheCapacity: capacity), input) == "refused", "\(entry.name)/\(capacity)")
            }
        }
    }
}

/// The same variants as a caller of the backend API may build them: `PublicKeyInfo(algorithm:derEncoded:)` with
/// the curve's name and no `encodingProblem`, so that OpenSSL takes its direct path for every one of them.
@Suite("EC signer keys without the core's encodingProblem: the direct OpenSSL path")
struct ECKeyDirectPathAttackTests {
    typealias Attack = ECKeyEncodingAttackTests

    @Test("the point at infinity and other non-uncompressed points never verify and the backends agree")
    func directPath() throws {
        let (link, x, y) = try Attack.p256Link()
        let yOdd = y[31] & 1 == 1
        let algorithm = link.signerKey.algorithm
        let variants: [(String, [UInt8], valid: Bool)] = [
            ("genuine", [0x04] + x + y, true),
            ("compressed", [yOdd ? 0x03 : 0x02] + x, false),
            ("hybrid", [yOdd ? 0x07 : 0x06] + x + y, false),
            ("point at infinity 00", [0x00], false),
            ("empty", [], false),
        ]
        for entry in BackendRegistry.standard.entries {
            let backend = entry.backend(certificateCacheCapacity: 0)
            for (name, point, valid) in variants {
                var input = link
                input.signerKey = PublicKeyInfo(algorithm: algorithm, derEncoded: Attack.spki(curve: Attack.p256, point: point))
                #expect(Attack.verdict(backend, input) == (valid ? "valid" : "refused"), "\(entry.name) \(name)")
            }
            let forged = SignatureInput(
                scheme: .ecdsa(.sha256), signedBytes: Attack.message, signature: Attack.forged,
                signerKey: PublicKeyInfo(algorithm: algorithm, derEncoded: Attack.spki(curve: Attack.p256, point: [0x00])))
            #expect(Attack.verdict(backend, forged) == "refused", "\(entry.name): forged for the point at infinity")
        }
    }
}

/// OpenSSL copies one shared group template per curve for every key it builds: from several threads at once,
/// genuine links still verify and off-curve keys are still refused.
@Suite("EC signer keys: the shared group template from several threads")
struct ECKeyTemplateConcurrencyTests {
    @Test("four threads, fresh keys each time (no key cache)")
    func concurrentKeys() throws {
        let (link, x, y) = try ECKeyEncodingAttackTests.p256Link()
        var offCurve = y
        offCurve[0] ^= 0x80
        var brokenInput = link
        brokenInput.signerKey = try ECKeyEncodingAttackTests.decode(
            ECKeyEncodingAttackTests.spki(curve: ECKeyEncodingAttackTests.p256, point: [0x04] + x + offCurve))
        let broken = brokenInput
        for entry in BackendRegistry.standard.entries {
            let backend = entry.backend(certificateCacheCapacity: 0)
            // CacheLock (pthread), not Mutex: ThreadSanitizer cannot see Mutex's futex on Linux.
            let results = CacheLock<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                var local: [String] = []
                for round in 0..<150 {
                    let input = round % 2 == 0 ? link : broken
                    local.append(ECKeyEncodingAttackTests.verdict(backend, input) + (round % 2 == 0 ? "/genuine" : "/off-curve"))
                }
                results.withLock { $0 += local }
            }
            let all = results.withLock { $0 }
            #expect(all.count == 600)
            #expect(all.filter { $0 == "valid/genuine" }.count == 300, "\(entry.name)")
            #expect(all.filter { $0 == "refused/off-curve" }.count == 300, "\(entry.name)")
        }
    }
}
