@testable import CertKit
import CertKitBackends
import Foundation
import Testing

/// A signer key on a curve one of the libraries lacks (secp256k1: OpenSSL verifies it, GnuTLS cannot) is never
/// handed to a library (`PathSignatureCheck`): the path is kept and fails `certkit.key-algorithm` (or, under apple,
/// `apple.key-algorithm`), fatal `WeakKeySize`, the same on both backends. Handed over, OpenSSL judged the link and
/// GnuTLS dropped the path as missing its issuer (differential seed 20261205, cases 447 and 632).
@Suite("a signer key one library cannot verify: the same weak-key verdict on both backends")
struct UnverifiableSignerKeyTests {
    typealias F = GnuTLSFixtures

    /// `certificate` with its SubjectPublicKeyInfo replaced by `spki` (the signature no longer matches: for an
    /// anchor nothing reads it).
    static func replacingKey(of certificate: [UInt8], with spki: [UInt8]) throws -> [UInt8] {
        try DERBuilder.replacingTBSField(of: certificate, at: 6, with: spki)
    }

    /// leaf ← Int RSA ← an anchor with Root RSA's name and key identifier but a secp256k1 key.
    static func evaluation(profile: TrustProfile) throws -> TrustEvaluation {
        let chain = try F.derBlocks("valid-chain-rsa/chain.pem").map { try Certificate(derEncoded: $0) }
        let k1 = try F.derBlocks("profiles-ec-secp256k1-apple/chain.pem")[0]
        let k1Key = try Certificate(derEncoded: k1).publicKey
        try #require(k1Key.algorithm == .ec(curve: "secp256k1", bits: 256), "the fixture's leaf is not on secp256k1")
        let root = try F.derBlocks("valid-chain-rsa/root-rsa.pem")[0]
        let anchor = try Certificate(derEncoded: try replacingKey(of: root, with: k1Key.derEncoded))
        return TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: "leaf.example", profile: profile)], anchors: [anchor],
            verifyDate: F.verifyDate)
    }

    @Test("the path is kept and its anchor is a fatal weak key, on both backends, under every profile",
          arguments: TrustProfile.allCases)
    func sameVerdictOnBothBackends(profile: TrustProfile) throws {
        let evaluation = try Self.evaluation(profile: profile)
        for backend in BackendRegistry.standard.allBackends() {
            let report = TrustEvaluator(backend: backend).evaluate(evaluation)
            #expect(report.result == .fatalTrustFailure, "\(backend.name) \(profile)")
            #expect(report.chain.count == 3, "\(backend.name) \(profile): the path through the anchor is kept")
            #expect(report.checks.count == 3 && report.checks[2].contains(.weakKeySize), "\(backend.name) \(profile)")
            let named = report.checks.reduce(Set<TrustCheck>()) { $0.union($1) }
            #expect(!named.contains(.missingIntermediate) && !named.contains(.signature),
                    "\(backend.name) \(profile): \(named) names a check that did not fail")
            // certkit.key-algorithm in every profile, beside apple.key-algorithm under apple.
            #expect(report.failedRules(at: 2).contains(TrustRules.verifiableKeyAlgorithm), "\(backend.name) \(profile): \(report.failedRules(at: 2).map(\.id))")
            #expect(report.failedRules(at: 2).contains(TrustRules.appleKeyAlgorithm) == (profile == .apple), "\(backend.name) \(profile)")
        }
    }

    /// The SubjectPublicKeyInfo `spki` with its AlgorithmIdentifier replaced by `algorithm` (same key bits).
    static func replacingAlgorithm(of spki: [UInt8], with algorithm: [UInt8]) throws -> [UInt8] {
        let bits = try DERReader.read(spki) { top throws(CertificateDecodingError) in
            var fields = try top.read(DERTag.sequence, "spki").children()
            _ = try fields.read(DERTag.sequence, "algorithm")
            return try fields.read(DERTag.bitString, "key").encoded
        }
        return DERBuilder.sequence([algorithm, bits])
    }

    /// The AlgorithmIdentifier of `spki`.
    static func algorithm(of spki: [UInt8]) throws -> [UInt8] {
        try DERReader.read(spki) { top throws(CertificateDecodingError) in
            var fields = try top.read(DERTag.sequence, "spki").children()
            return try fields.read(DERTag.sequence, "algorithm").encoded
        }
    }

    @Test("an anchor whose P-256 key spells its curve out (explicit parameters, which OpenSSL 3 refuses): the same fatal weak key on both backends, no MissingIntermediate",
          arguments: TrustProfile.allCases)
    func explicitCurveSigner(profile: TrustProfile) throws {
        let chain = try F.derBlocks("valid-chain-ec/chain.pem")
        let explicitSPKI = try Certificate(derEncoded: try F.derBlocks("profiles-ec-explicit-parameters-apple/chain.pem")[0]).publicKey.derEncoded
        let intermediate = try Certificate(derEncoded: chain[1])
        let spki = try Self.replacingAlgorithm(of: intermediate.publicKey.derEncoded, with: try Self.algorithm(of: explicitSPKI))
        let anchor = try Certificate(derEncoded: try Self.replacingKey(of: chain[1], with: spki))
        #expect(anchor.publicKey.algorithm == .ec(curve: PublicKeyInfo.explicitCurve, bits: 256))
        let evaluation = TrustEvaluation(
            certificates: [try Certificate(derEncoded: chain[0])], policies: [.sslServer(host: "leaf.example", profile: profile)],
            anchors: [anchor], verifyDate: F.verifyDate)
        var verdicts: [(TrustResultType, [Set<TrustCheck>])] = []
        for backend in BackendRegistry.standard.allBackends() {
            let report = TrustEvaluator(backend: backend).evaluate(evaluation)
            verdicts.append((report.result, report.checks))
            let named = report.checks.reduce(Set<TrustCheck>()) { $0.union($1) }
            #expect(!report.isTrusted, "\(backend.name) \(profile)")
            #expect(!named.contains(.missingIntermediate) && !named.contains(.signature), "\(backend.name) \(profile): \(report.checks)")
            #expect(report.result == .fatalTrustFailure && report.checks.last?.contains(.weakKeySize) == true,
                    "\(backend.name) \(profile): \(report.result) \(report.checks)")
        }
        #expect(verdicts.allSatisfy { $0.0 == verdicts[0].0 && $0.1 == verdicts[0].1 }, "\(profile): \(verdicts)")
    }

    @Test("a CRL or OCSP signature by such a key is refused before any library, with the key named")
    func refusedForCRLAndOCSPSignatures() throws {
        let k1 = try Certificate(derEncoded: try F.derBlocks("profiles-ec-secp256k1-apple/chain.pem")[0]).publicKey
        let input = SignatureInput(
            scheme: .ecdsa(.sha256), signedBytes: [1, 2, 3],
            signature: ReencodedSignature.sigValue(r: [0x01], s: [0x01]), signerKey: k1)
        for backend in BackendRegistry.standard.allBackends() {
            let problem = try PathSignatureCheck.verify(input, backend: backend)
            #expect(problem?.contains("not one both libraries verify") == true, "\(backend.name): \(problem ?? "verified")")
        }
    }
}

/// An ECDSA-Sig-Value from its two INTEGER contents.
private enum ReencodedSignature {
    static func sigValue(r: [UInt8], s: [UInt8]) -> [UInt8] {
        DERBuilder.tlv(0x30, DERBuilder.tlv(0x02, r) + DERBuilder.tlv(0x02, s))
    }
}
