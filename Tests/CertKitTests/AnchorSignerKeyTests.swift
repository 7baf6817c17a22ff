import CertKit
import CertKitGnuTLS
import CertKitOpenSSL
import Testing

/// A link signed by an anchor is verified with the key kept with the prepared anchors (built once per anchor set,
/// whatever the backend's own cache capacity). That key answers only for its own signatures: the key in the
/// input decides, on both backends, before and after the anchor's key was kept.
@Suite struct AnchorSignerKeyTests {
    static let backends: [any TrustBackend] = [
        OpenSSLBackend(certificateCacheCapacity: 0), GnuTLSBackend(certificateCacheCapacity: 0),
    ]

    @Test("through the anchor store: the anchor's signature verifies, another key's does not, on each backend")
    func anchorKeyAnswersForItsOwnSignaturesOnly() throws {
        let chain = try ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
        let root = try #require(try ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem").first)
        let (leaf, intermediate) = (chain[0], chain[1])
        func link(_ certificate: Certificate, signer: PublicKeyInfo) throws -> SignatureInput {
            SignatureInput(
                scheme: try #require(certificate.signatureAlgorithm.scheme), signedBytes: certificate.tbsCertificateBytes,
                signature: certificate.signatureBytes, signerKey: signer)
        }
        let genuine = try link(intermediate, signer: root.publicKey)
        // The leaf's signature (made by the intermediate) presented as the root's.
        let forged = try link(leaf, signer: root.publicKey)
        var tampered = genuine
        tampered.signedBytes[tampered.signedBytes.count / 2] ^= 0x01
        for backend in Self.backends {
            let store = try backend.prepareAnchors([root])
            for round in 1...3 {
                #expect(try backend.verifySignature(genuine, signedBy: root, in: store) == .valid, "\(backend.name) \(round)")
                #expect(try backend.verifySignature(forged, signedBy: root, in: store) != .valid, "\(backend.name) \(round)")
                #expect(try backend.verifySignature(tampered, signedBy: root, in: store) != .valid, "\(backend.name) \(round)")
            }
            // A link whose signer is not the anchor it is said to be is still verified with its own key.
            let leafLink = try link(leaf, signer: intermediate.publicKey)
            #expect(try backend.verifySignature(leafLink, signedBy: root, in: store) == .valid, "\(backend.name)")
            // And the evaluation that goes through the store trusts the genuine chain.
            let report = TrustEvaluator(backend: backend).evaluate(TrustEvaluation(
                certificates: chain, policies: [.sslServer(host: "leaf.example")], anchors: [root],
                verifyDate: ConcurrencyFixtures.verifyDate))
            #expect(report.isTrusted, "\(backend.name): \(report)")
        }
    }
}
