@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// An id-RSASSA-PSS key with parameters signs only with exactly those parameters (`PSSKeyParameters`): OpenSSL read
/// the key's salt length as a minimum and GnuTLS as the exact value, so a signature with salt 32 under a key saying
/// salt 20 was trusted on OpenSSL and a missing issuer on GnuTLS (found by an attack on the 2026-12-03 changes).
@Suite("RSASSA-PSS key parameters bind the signature's")
struct PSSKeyParameterTests {
    static let sha256: [UInt8] = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
    static let mgf1: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x08]
    static let rsassaPSS: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0A]

    /// The RSA fixture root's key as an id-RSASSA-PSS key: SHA-256, MGF1-SHA-256 and `salt`, or no parameters.
    static func pssKey(salt: Int?) throws -> PublicKeyInfo {
        let rsa = try Fixtures.certificates("valid-chain-rsa/root-rsa.pem")[0].publicKey.derEncoded
        let bits = try DERReader.read(rsa) { (top) throws(CertificateDecodingError) -> [UInt8] in
            var fields = try top.read(DERTag.sequence, "spki").children()
            _ = try fields.read(DERTag.sequence, "algorithm")
            return try fields.read(DERTag.bitString, "key").encoded
        }
        var algorithm = [rsassaPSS]
        if let salt {
            let hash = DERBuilder.sequence([sha256])
            algorithm.append(DERBuilder.sequence([
                DERBuilder.tlv(0xA0, hash), DERBuilder.tlv(0xA1, DERBuilder.sequence([mgf1, hash])),
                DERBuilder.tlv(0xA2, DERBuilder.tlv(0x02, [UInt8(salt)])),
            ]))
        }
        let der = DERBuilder.sequence([DERBuilder.sequence(algorithm), bits])
        return try DERReader.read(der) { (top) throws(CertificateDecodingError) -> PublicKeyInfo in
            try PublicKeyParser.parse(top.read(DERTag.sequence, "subjectPublicKeyInfo"))
        }
    }

    @Test("the key's parameters must equal the signature's; a key without parameters takes any accepted PSS signature")
    func parametersBind() throws {
        let signature = SignatureScheme.rsaPSS(.sha256, saltLength: 32)
        #expect(PSSKeyParameters.mismatch(key: try Self.pssKey(salt: nil), scheme: signature) == nil)
        #expect(PSSKeyParameters.mismatch(key: try Self.pssKey(salt: 32), scheme: signature) == nil)
        #expect(PSSKeyParameters.mismatch(key: try Self.pssKey(salt: 20), scheme: signature) != nil)
        #expect(PSSKeyParameters.mismatch(key: try Self.pssKey(salt: 32), scheme: .rsaPSS(.sha384, saltLength: 48)) != nil)
        // An rsaEncryption key is not restricted.
        let rsa = try Fixtures.certificates("valid-chain-rsa/root-rsa.pem")[0].publicKey
        #expect(PSSKeyParameters.mismatch(key: rsa, scheme: signature) == nil)
    }

    @Test("a signature under a key whose parameters differ is refused before either library sees it")
    func refusedBeforeTheLibraries() throws {
        // (key salt, signature scheme, what the refusal says)
        let cases: [(Int, SignatureScheme, String)] = [
            (20, .rsaPSS(.sha256, saltLength: 32), "signs nothing"),  // OpenSSL: salt ≥ 20 verifies; GnuTLS: ≠ 20 fails
            (32, .rsaPSS(.sha384, saltLength: 48), "not the key's"),
        ]
        for (salt, scheme, words) in cases {
            let key = try Self.pssKey(salt: salt)
            guard case .rsa(let bits) = key.algorithm else { Issue.record("not RSA"); return }
            let input = SignatureInput(
                scheme: scheme, signedBytes: [1, 2, 3], signature: [UInt8](repeating: 0x01, count: (bits + 7) / 8),
                signerKey: key)
            for backend in BackendRegistry.standard.allBackends() {
                let problem = try PathSignatureCheck.verify(input, backend: backend)
                #expect(problem?.contains(words) == true, "\(backend.name): \(problem ?? "verified")")
            }
        }
    }
}
