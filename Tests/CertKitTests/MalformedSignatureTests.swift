@testable import CertKit
import CertKitBackends
import Foundation
import Testing

/// Signatures the libraries cannot even parse: OpenSSL's `EVP_DigestVerify` returns −1, not 0, for an
/// ECDSA signature that is not a DER `ECDSA-Sig-Value` (checked with a C program against libcrypto 3: garbage, a
/// truncated SEQUENCE and an empty signature give −1; a well-formed wrong signature gives 0). Such a signature is
/// invalid on every backend, directly and where it matters most: an OCSP response, which gets no library second
/// opinion.
@Suite("Malformed signatures: never valid on any backend (EVP_DigestVerify's −1 included)")
struct MalformedSignatureTests {
    /// Signature values no library parses as an ECDSA-Sig-Value (OpenSSL: −1), and one that parses but is wrong
    /// (OpenSSL: 0).
    static let malformedECDSA: [[UInt8]] = [
        [0x01, 0x02, 0x03, 0x04],  // not DER
        [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x02, 0x01],  // a SEQUENCE whose second INTEGER is cut short
        [],  // empty
    ]
    static let wellFormedWrongECDSA: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]

    @Test("an ECDSA link with a signature that is not DER, or is cut short, or empty: invalid, on every backend")
    func ecdsa() throws {
        let (link, _, _) = try ECKeyEncodingAttackTests.p256Link()
        for entry in BackendRegistry.standard.entries {
            let backend = entry.backend()
            #expect(try backend.verifySignature(link) == .valid, "\(entry.name): the genuine link")
            for signature in Self.malformedECDSA + [Self.wellFormedWrongECDSA] {
                var altered = link
                altered.signature = signature
                #expect(ECKeyEncodingAttackTests.verdict(backend, altered) == "refused", "\(entry.name) \(signature)")
            }
        }
    }

    @Test("an RSA link with a signature of the wrong length: invalid, on every backend")
    func rsaLength() throws {
        let link = try #require(try SignerKeyTests.links("valid-chain-rsa/chain.pem", "valid-chain-rsa/root-rsa.pem").first)
        for entry in BackendRegistry.standard.entries {
            let backend = entry.backend()
            #expect(try backend.verifySignature(link) == .valid, "\(entry.name): the genuine link")
            for signature in [Array(link.signature.dropLast()), link.signature + [0], [0x01, 0x02, 0x03, 0x04], []] {
                var altered = link
                altered.signature = signature
                #expect(ECKeyEncodingAttackTests.verdict(backend, altered) == "refused", "\(entry.name) \(signature.count) bytes")
            }
        }
    }

    /// `good.der` (signed by the CA's P-256 key) with its signature value replaced by `signature`.
    static func goodResponse(signedWith signature: [UInt8]) throws -> [UInt8] {
        let (status, type, octets) = try OCSPResponseTests.envelope(of: try OCSPResponseTests.bytes("good.der"))
        let parts = try DERReader.read(octets) { octets throws(CertificateDecodingError) in
            var basic = try octets.read(DERTag.sequence, "BasicOCSPResponse").children()
            let tbs = try basic.read(DERTag.sequence, "tbs").encoded
            let algorithm = try basic.read(DERTag.sequence, "algorithm").encoded
            _ = try basic.read(DERTag.bitString, "signature")
            return (tbs, algorithm, try basic.read(DERTag.contextConstructed(0), "certs").encoded)
        }
        let inner = DERWriter.sequence([parts.0, parts.1, DERWriter.tlv(DERTag.bitString, [0] + signature), parts.2])
        return DERWriter.sequence([
            status,
            DERWriter.tlv(DERTag.contextConstructed(0), DERWriter.sequence([type, DERWriter.tlv(DERTag.octetString, inner)])),
        ])
    }

    @Test("an OCSP response whose signature is not an ECDSA-Sig-Value is no answer (RevocationResponseRequired), on every backend")
    func ocspResponse() throws {
        var evaluation = TrustEvaluation(
            certificates: [try OCSPResponseTests.certificate("leaf-good.pem")],
            anchors: [try OCSPResponseTests.certificate("ca.pem")], verifyDate: try OCSPResponseTests.verifyDate())
        for entry in BackendRegistry.standard.entries {
            let evaluator = TrustEvaluator(backend: entry.backend(), configuration: .uncached)
            evaluation.ocspResponses = [try OCSPResponse(derEncoded: OCSPResponseTests.bytes("good.der"))]
            #expect(evaluator.evaluate(evaluation).revocation.first?.outcome == .good, "\(entry.name): the genuine response")
            for signature in Self.malformedECDSA {
                evaluation.ocspResponses = [try OCSPResponse(derEncoded: Self.goodResponse(signedWith: signature))]
                let report = evaluator.evaluate(evaluation)
                #expect(report.error?.check == .revocationResponseRequired, "\(entry.name) \(signature): \(report)")
                #expect(report.revocation.first?.outcome != .good, "\(entry.name) \(signature)")
            }
        }
    }
}
