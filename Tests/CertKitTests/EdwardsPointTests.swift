@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// EdDSA points (a key's `A`, a signature's `R`) must decode canonically and have more than small order, checked by
/// the core before any library: a key of small order verifies the fixed signature (R = identity, S = 0) on every
/// message — OpenSSL and GnuTLS both trusted a leaf "signed" that way under an intermediate with such a key.
@Suite("EdDSA points: canonical, not of small order")
struct EdwardsPointTests {
    /// `value` as `count` little-endian bytes.
    static func littleEndian(_ hex: String, count: Int) -> [UInt8] {
        let bigEndian = Array(Hex.decode(hex)!)
        return Array(bigEndian.reversed()) + [UInt8](repeating: 0, count: count - bigEndian.count)
    }

    static let ed25519SmallOrder = [
        "01", "00", "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec",
        "05fc536d880238b13933c6d305acdfd5f098eff289f4c345b027b2c28f95e826",
        "7a03ac9277fdc74ec6cc392cfa53202a0f67100d760b3cba4fd84d3d706a17c7",
    ]

    @Test("Ed25519: every small-order y, with either sign bit, is refused; so are y = p and y = p + 1; a genuine key passes")
    func ed25519Points() throws {
        for y in Self.ed25519SmallOrder {
            var point = Self.littleEndian(y, count: 32)
            #expect(EdwardsPointEncoding.problem(point[...], ed448: false) != nil, "\(y)")
            point[31] |= 0x80
            #expect(EdwardsPointEncoding.problem(point[...], ed448: false) != nil, "\(y) with the sign bit")
        }
        for y in ["7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed", "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffee"] {
            #expect(EdwardsPointEncoding.problem(Self.littleEndian(y, count: 32)[...], ed448: false) != nil, "y = \(y)")
        }
        let root = try Fixtures.certificates("attacks-ed25519-chain/root-ed25519.pem")[0]
        #expect(root.publicKey.encodingProblem == nil)
        let point = Array(root.publicKey.derEncoded.suffix(32))
        #expect(EdwardsPointEncoding.problem(point[...], ed448: false) == nil)
        // One more than a small-order y is an ordinary point (y = 2 decodes on the curve or not; it is no small order).
        #expect(EdwardsPointEncoding.problem(Self.littleEndian("02", count: 32)[...], ed448: false)?.contains("small order") != true)
    }

    @Test("Ed448: y in {0, 1, p − 1}, y ≥ p and stray bits in the final octet are refused; y = p − 2 is not of small order")
    func ed448Points() {
        let p = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
        let pMinus1 = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffffffffffffffffffffffffffffffffffffffffffffffffffffe"
        for y in ["00", "01", pMinus1, p] {
            #expect(EdwardsPointEncoding.problem(Self.littleEndian(y, count: 57)[...], ed448: true) != nil, "y = \(y)")
        }
        var stray = Self.littleEndian("05", count: 57)
        stray[56] = 0x01
        #expect(EdwardsPointEncoding.problem(stray[...], ed448: true) != nil)
        let pMinus2 = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffffffffffffffffffffffffffffffffffffffffffffffffffffd"
        #expect(EdwardsPointEncoding.problem(Self.littleEndian(pMinus2, count: 57)[...], ed448: true) == nil)
        var signBit = Self.littleEndian(pMinus2, count: 57)
        signBit[56] = 0x80
        #expect(EdwardsPointEncoding.problem(signBit[...], ed448: true) == nil)
    }

    /// The fixture root's Ed25519 SubjectPublicKeyInfo with its 32 key bytes replaced.
    static func ed25519Key(_ point: [UInt8]) throws -> PublicKeyInfo {
        let root = try Fixtures.certificates("attacks-ed25519-chain/root-ed25519.pem")[0]
        let der = Array(root.publicKey.derEncoded.dropLast(32)) + point
        return try DERReader.read(der) { (top) throws(CertificateDecodingError) -> PublicKeyInfo in
            try PublicKeyParser.parse(top.read(DERTag.sequence, "subjectPublicKeyInfo"))
        }
    }

    @Test("a key of small order is a refused key, and its fixed signature verifies nothing, on both backends",
          arguments: [("identity", "01"), ("order 2", "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec")])
    func smallOrderKeyForgesNothing(_ point: (String, String)) throws {
        let key = try Self.ed25519Key(Self.littleEndian(point.1, count: 32))
        #expect(key.encodingProblem?.contains("small order") == true, "\(point.0): \(key.encodingProblem ?? "accepted")")
        let forged = SignatureInput(
            scheme: .ed25519, signedBytes: Array("any message at all".utf8),
            signature: Self.littleEndian("01", count: 32) + [UInt8](repeating: 0, count: 32), signerKey: key)
        for backend in BackendRegistry.standard.allBackends() {
            #expect(try PathSignatureCheck.verify(forged, backend: backend) != nil, "\(backend.name) verified a forgery (\(point.0))")
        }
    }

    @Test("a signature whose R is the identity is refused before either library sees it")
    func identityR() throws {
        let key = try Fixtures.certificates("attacks-ed25519-chain/root-ed25519.pem")[0].publicKey
        let signature = Self.littleEndian("01", count: 32) + [UInt8](repeating: 0, count: 32)
        #expect(SignatureValueEncoding.problem(signature, scheme: .ed25519, key: key)?.contains("R") == true)
        // Ed448: R the identity (GnuTLS verified such a CRL signature, OpenSSL did not), S well below L.
        let ed448 = PublicKeyInfo(algorithm: .ed448, derEncoded: [])
        let s = [UInt8](repeating: 0x11, count: 56) + [0]
        #expect(SignatureValueEncoding.problem(Self.littleEndian("01", count: 57) + s, scheme: .ed448, key: ed448)?.contains("R") == true)
        // The same S with an ordinary R passes the encoding check.
        #expect(SignatureValueEncoding.problem(Self.littleEndian("05", count: 57) + s, scheme: .ed448, key: ed448) == nil)
    }
}
