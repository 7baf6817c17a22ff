import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// Each backend verifies a link from the issuer's SubjectPublicKeyInfo (OpenSSL builds RSA and P-256/384/521 keys
/// directly from the subjectPublicKey, other keys with `d2i_PUBKEY`): genuine signatures verify, altered ones and
/// keys that are not keys do not, on both backends alike, with the key cache on and off.
@Suite struct SignerKeyTests {
    /// (chain file, anchor file) of a leaf → intermediate → root path per key type.
    static let chains = [
        ("valid-chain-rsa/chain.pem", "valid-chain-rsa/root-rsa.pem"),
        ("valid-chain-ec/chain.pem", "valid-chain-ec/root-ec.pem"),
        ("attacks-ed25519-chain/chain.pem", "attacks-ed25519-chain/root-ed25519.pem"),
    ]

    /// The links of a chain: each certificate's signature input, signed by the next certificate's key.
    static func links(_ chain: String, _ anchor: String) throws -> [SignatureInput] {
        let path = try Fixtures.certificates(chain) + Fixtures.certificates(anchor)
        return try zip(path, path.dropFirst()).map { subject, issuer in
            let scheme = try #require(subject.signatureAlgorithm.scheme)
            return SignatureInput(
                scheme: scheme, signedBytes: subject.tbsCertificateBytes, signature: subject.signatureBytes,
                signerKey: issuer.publicKey)
        }
    }

    @Test("genuine links verify, altered ones do not", arguments: chains)
    func links(_ files: (String, String)) throws {
        for entry in BackendRegistry.standard.entries {
            for capacity in [0, 256] {
                let backend = entry.backend(certificateCacheCapacity: capacity)
                for link in try Self.links(files.0, files.1) {
                    #expect(try backend.verifySignature(link) == .valid, "\(entry.name) \(files.0) \(link.signerKey.algorithm)")
                    var altered = link
                    altered.signedBytes[altered.signedBytes.count / 2] ^= 0x01
                    #expect(try backend.verifySignature(altered) != .valid, "\(entry.name) altered \(files.0)")
                }
            }
        }
    }

    @Test("an EC point that is not on its curve is no key, on both backends")
    func offCurvePoint() throws {
        let link = try #require(Self.links("valid-chain-ec/chain.pem", "valid-chain-ec/root-ec.pem").first)
        var spki = link.signerKey.derEncoded
        spki[spki.count - 1] ^= 0x01  // the last byte of the point's y coordinate: off the curve
        var broken = link
        broken.signerKey = PublicKeyInfo(algorithm: link.signerKey.algorithm, derEncoded: spki)
        for backend in BackendRegistry.standard.allBackends() {
            guard case .invalid = try backend.verifySignature(broken) else {
                Issue.record("\(backend.name) accepted an off-curve EC key")
                continue
            }
        }
    }

    @Test("each named curve (OpenSSL: a copy of the curve's group template): genuine self-signatures verify; altered ones, off-curve points and another curve's point do not")
    func namedCurves() throws {
        let pki = try TestPKI(prefix: "certkit-encoding")
        var links: [String: SignatureInput] = [:]
        for curve in ["prime256v1", "secp384r1", "secp521r1"] {
            let pem = try pki.selfSigned(curve, subject: "/CN=\(curve)", key: "ec:\(curve)")
            let certificate = try #require(try CertificateBundle.decode(Array(Data(contentsOf: pem))).certificates.first)
            #expect(certificate.publicKey.encodingProblem == nil, "\(curve): the key takes the direct path")
            links[curve] = SignatureInput(
                scheme: try #require(certificate.signatureAlgorithm.scheme), signedBytes: certificate.tbsCertificateBytes,
                signature: certificate.signatureBytes, signerKey: certificate.publicKey)
        }
        for entry in BackendRegistry.standard.entries {
            for capacity in [0, 256] {
                let backend = entry.backend(certificateCacheCapacity: capacity)
                for (curve, link) in links.sorted(by: { $0.key < $1.key }) {
                    #expect(try backend.verifySignature(link) == .valid, "\(entry.name) \(curve)")
                    var altered = link
                    altered.signature[altered.signature.count - 2] ^= 0x01
                    #expect(try backend.verifySignature(altered) != .valid, "\(entry.name) \(curve): altered signature")
                    var offCurve = link
                    var spki = link.signerKey.derEncoded
                    spki[spki.count - 1] ^= 0x01
                    offCurve.signerKey = PublicKeyInfo(algorithm: link.signerKey.algorithm, derEncoded: spki)
                    #expect(try backend.verifySignature(offCurve) != .valid, "\(entry.name) \(curve): off-curve point")
                }
                // The P-384 link verified with the P-256 key (the right curve's name, another curve's point).
                var crossed = try #require(links["secp384r1"])
                crossed.signerKey = try #require(links["prime256v1"]).signerKey
                #expect(try backend.verifySignature(crossed) != .valid, "\(entry.name): another key")
            }
        }
    }

    @Test("an RSA key with bytes after its RSAPublicKey is no key, on both backends")
    func rsaTrailingBytes() throws {
        let link = try #require(Self.links("valid-chain-rsa/chain.pem", "valid-chain-rsa/root-rsa.pem").first)
        let spki = link.signerKey.derEncoded
        // SEQUENCE { algorithm, BIT STRING { 0, RSAPublicKey } }: re-encode with one byte after the RSAPublicKey.
        let algorithm = try #require(Self.tlv(spki, at: Self.contentStart(spki, at: 0)))
        let bitString = try #require(Self.tlv(spki, at: algorithm.upperBound))
        let content = Array(spki[(Self.contentStart(spki, at: bitString.lowerBound))..<bitString.upperBound]) + [0x00]
        var broken = link
        broken.signerKey = PublicKeyInfo(
            algorithm: link.signerKey.algorithm,
            derEncoded: DERBuilder.sequence([Array(spki[algorithm]), DERBuilder.tlv(0x03, content)]))
        for backend in BackendRegistry.standard.allBackends() {
            guard case .invalid = try backend.verifySignature(broken) else {
                Issue.record("\(backend.name) accepted an RSA key with trailing bytes")
                continue
            }
        }
    }

    private static func contentStart(_ bytes: [UInt8], at offset: Int) -> Int {
        let first = Int(bytes[offset + 1])
        return offset + 2 + (first >= 0x80 ? first & 0x7F : 0)
    }

    private static func tlv(_ bytes: [UInt8], at offset: Int) -> Range<Int>? {
        guard offset + 2 <= bytes.count else { return nil }
        let first = Int(bytes[offset + 1])
        var length = first
        if first >= 0x80 {
            length = 0
            for byte in bytes[(offset + 2)..<(offset + 2 + (first & 0x7F))] { length = length << 8 | Int(byte) }
        }
        return offset..<(contentStart(bytes, at: offset) + length)
    }
}
