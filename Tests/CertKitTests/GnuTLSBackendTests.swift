import CertKit
import CertKitGnuTLS
import Foundation
import Testing

/// The GnuTLS backend against the committed fixtures (GnuTLS 3.7 from the system).
@Suite struct GnuTLSBackendTests {
    let backend = GnuTLSBackend()
    typealias F = GnuTLSFixtures

    @Test func nameIsGnuTLS() { #expect(backend.name == "gnutls") }

    // MARK: import

    @Test func importsExactlyConsumedDER() throws {
        let der = try F.derBlocks("valid-chain-rsa/root-rsa.pem")[0]
        try backend.checkImport(der)
    }

    @Test func rejectsTrailingBytes() throws {
        let der = try F.derBlocks("valid-chain-rsa/root-rsa.pem")[0]
        #expect((#expect(throws: BackendError.self) { try backend.checkImport(der + [0x00]) })?.code == .refusedInput)
        #expect((#expect(throws: BackendError.self) { try backend.checkImport(der + der) })?.code == .refusedInput)
    }

    @Test func rejectsTruncatedAndGarbage() throws {
        let der = try F.derBlocks("valid-chain-rsa/root-rsa.pem")[0]
        #expect((#expect(throws: BackendError.self) { try backend.checkImport(Array(der.dropLast())) })?.code == .refusedInput)
        #expect((#expect(throws: BackendError.self) { try backend.checkImport([0x30, 0x03, 0x02, 0x01, 0x00]) })?.code == .refusedInput)
        #expect((#expect(throws: BackendError.self) { try backend.checkImport([]) })?.code == .refusedInput)
    }

    // MARK: digests

    @Test func digestsMatchKnownVectors() throws {
        let abc = Array("abc".utf8)
        #expect(hex(try backend.digest(.sha1, of: abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(try backend.digest(.sha256, of: abc))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(try backend.digest(.sha256, of: []))
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    // MARK: valid paths

    @Test(arguments: [("valid-chain-rsa", "root-rsa.pem"), ("valid-chain-ec", "root-ec.pem")])
    func validChainHasNoFindings(scenario: String, anchor: String) throws {
        let findings = try F.verify(scenario, anchor: anchor)
        #expect(findings.checks.count == 3)
        #expect(F.failures(findings).isEmpty, "\(findings.notes)")
    }

    @Test(arguments: [
        ("leaf-anchor-self-signed-rsa", "leaf-selfsigned-rsa.pem"),
        ("leaf-anchor-self-signed-ec", "leaf-selfsigned-ec.pem"),
        ("leaf-anchor-ca-issued-rsa", "leaf-rsa.pem"),
        ("intermediate-anchor-rsa", "int-rsa.pem"),
        ("intermediate-anchor-ec", "int-ec.pem"),
    ])
    func nonRootAnchorsAreTrusted(scenario: String, anchor: String) throws {
        let findings = try F.verify(scenario, anchor: anchor)
        #expect(F.failures(findings).isEmpty, "\(findings.notes)")
    }

    @Test(arguments: ["sha1-leaf-rsa", "sha1-leaf-ec"])
    func sha1IsLeftToTheCore(scenario: String) throws {
        let anchor = scenario.hasSuffix("ec") ? "root-ec.pem" : "root-rsa.pem"
        let findings = try F.verify(scenario, anchor: anchor)
        #expect(F.failures(findings).isEmpty, "\(findings.notes)")
    }

    @Test func md5SignatureIsNotReportedAsBadSignature() throws {
        let findings = try F.verify("md5-leaf", anchor: "root-rsa.pem")
        #expect(!findings.checks[0].contains(.signature), "\(findings.notes)")
    }

    // MARK: validity

    @Test func expiredLeaf() throws {
        let findings = try F.verify("expired-leaf-rsa", anchor: "root-rsa.pem")
        #expect(F.failures(findings) == [0: [.libraryVerdict]], "\(findings.notes)")
    }

    @Test func notYetValidLeaf() throws {
        let findings = try F.verify("not-yet-valid-leaf-rsa", anchor: "root-rsa.pem")
        #expect(F.failures(findings) == [0: [.libraryVerdict]], "\(findings.notes)")
    }

    // GnuTLS's status word does not say which certificate failed: its verdict is explained by the core's own
    // finding on any certificate, and adds a failure on the leaf when the core has none.

    @Test func expiredIntermediate() throws {
        try F.expectExplained("expired-intermediate-rsa", anchor: "root-rsa.pem", by: [1: [.temporalValidity]])
    }

    @Test func expiredRoot() throws {
        try F.expectExplained("expired-anchor-rsa", anchor: "root-expired-rsa.pem", by: [2: [.temporalValidity]])
    }

    @Test func validChainIsExpiredFarInTheFuture() throws {
        let later = Date(timeIntervalSince1970: 4_102_444_800 * 2)
        let core: [Int: Set<TrustCheck>] = [0: [.temporalValidity], 1: [.temporalValidity], 2: [.temporalValidity]]
        try F.expectExplained("valid-chain-rsa", anchor: "root-rsa.pem", at: later, by: core)
    }

    // MARK: signatures

    @Test func badLeafSignature() throws {
        for (scenario, anchor) in [("bad-signature-leaf-rsa", "root-rsa.pem"), ("bad-signature-leaf-ec", "root-ec.pem")] {
            let findings = try F.verify(scenario, anchor: anchor)
            #expect(F.failures(findings) == [0: [.signature]], "\(scenario): \(findings.notes)")
        }
    }

    @Test func badIntermediateSignature() throws {
        let findings = try F.verify("bad-signature-intermediate", anchor: "root-rsa.pem")
        #expect(F.failures(findings) == [1: [.signature]], "\(findings.notes)")
    }

    @Test func flippedSignatureByteOnLeaf() throws {
        let (path, anchors) = try F.anchoredPath("valid-chain-rsa", anchor: "root-rsa.pem")
        var leafDER = path.certificates[0].derEncoded
        leafDER[leafDER.count - 5] ^= 0x01  // inside the signature value, the last element
        var certificates = path.certificates
        certificates[0] = try F.certificate(der: leafDER)
        let store = try backend.prepareAnchors(anchors)
        let findings = try backend.verify(
            CandidatePath(certificates: certificates, endsAtAnchor: true), anchors: store, at: F.verifyDate, crls: []
        )
        #expect(F.failures(findings) == [0: [.signature]], "\(findings.notes)")
    }

    // MARK: CA constraints

    @Test func intermediateNotCA() throws {
        try F.expectExplained("intermediate-not-ca", anchor: "root-rsa.pem", by: [1: [.basicConstraintsCA]])
    }

    @Test func intermediateWithoutBasicConstraints() throws {
        for scenario in ["intermediate-no-basic-constraints", "intermediate-v1"] {
            try F.expectExplained(scenario, anchor: "root-rsa.pem", by: [1: [.basicConstraints]])
        }
    }

    @Test func pathLengthExceeded() throws {
        // leaf <- Int L2 <- Int L1 (pathlen:0) <- Root: Int L1's constraint is the one exceeded.
        try F.expectExplained("path-length-exceeded", anchor: "root-rsa.pem", by: [2: [.basicConstraintsPathLen]])
    }

    @Test func caWithoutKeyCertSign() throws {
        try F.expectExplained("ca-key-usage-no-certsign", anchor: "root-rsa.pem", by: [1: [.keyUsage]])
    }

    @Test func nameConstraintViolation() throws {
        try F.expectExplained("name-constraints-dns-excluded", anchor: "root-rsa.pem", by: [0: [.nameConstraints]])
        let allowed = try F.verify("name-constraints-not-violated", anchor: "root-rsa.pem")
        #expect(F.failures(allowed).isEmpty, "\(allowed.notes)")
    }

    // MARK: incomplete paths

    /// How an unanchored path ends is the core's rule (PathCompletenessCheck); GnuTLS gives no verdict on it,
    /// and its signatures still verify link by link.
    @Test func noLibraryVerdictOnPathsThatDoNotEndAtAnAnchor() throws {
        let store = try backend.prepareAnchors(try F.certificates("untrusted-root/other-root-rsa.pem"))
        let chain = try F.certificates("untrusted-root/chain.pem")
        #expect(chain.count == 3)
        for path in [[chain[0]], chain] {
            let candidate = CandidatePath(certificates: path, endsAtAnchor: false)
            #expect(try backend.libraryVerdict(on: candidate, anchors: store, at: F.verifyDate, crls: []).isEmpty)
            #expect(F.failures(try backend.verify(candidate, anchors: store, at: F.verifyDate, crls: [])).isEmpty)
        }
    }

    // MARK: revocation

    @Test func revokedLeaf() throws {
        let findings = try F.verify("revoked-leaf", anchor: "root-rsa.pem", crls: ["int-revokes-leaf.crl.pem"])
        #expect(F.failures(findings) == [0: [.revocation]], "\(findings.notes)")
    }

    @Test func crlNotListingLeafRevokesNothing() throws {
        let findings = try F.verify("crl-not-listing-leaf", anchor: "root-rsa.pem", crls: ["int-empty.crl.pem"])
        #expect(F.failures(findings).isEmpty, "\(findings.notes)")
    }

    @Test func crlFromAnotherIssuerRevokesNothing() throws {
        let findings = try F.verify("crl-other-issuer", anchor: "root-rsa.pem", crls: ["unrelated-lists-leaf.crl.pem"])
        #expect(F.failures(findings).isEmpty, "\(findings.notes)")
    }

    // MARK: anchors

    @Test func anchorsSharingASubjectVerifyTheChosenOne() throws {
        // Two intermediates named CN=Int RSA with different keys, both anchors: the leaf verifies only with
        // the right one, and the path ending at the wrong one must fail even though the store holds the other.
        let chain = try F.certificates("same-subject-two-keys/chain.pem")
        let (leaf, wrong, right) = (chain[0], chain[1], chain[2])
        let store = try backend.prepareAnchors([wrong, right])
        #expect(store.anchors == [wrong, right])
        let viaRight = try backend.verify(
            CandidatePath(certificates: [leaf, right], endsAtAnchor: true), anchors: store, at: F.verifyDate, crls: []
        )
        #expect(F.failures(viaRight).isEmpty, "\(viaRight.notes)")
        let viaWrong = try backend.verify(
            CandidatePath(certificates: [leaf, wrong], endsAtAnchor: true), anchors: store, at: F.verifyDate, crls: []
        )
        #expect(F.failures(viaWrong) == [0: [.signature]], "\(viaWrong.notes)")
    }

    @Test func storeFromAnotherBackendIsRejected() throws {
        final class ForeignStore: PreparedAnchorStore { var anchors: [Certificate] { [] } }
        let (path, _) = try F.anchoredPath("valid-chain-rsa", anchor: "root-rsa.pem")
        let error = #expect(throws: BackendError.self) {
            try backend.verify(path, anchors: ForeignStore(), at: F.verifyDate, crls: [])
        }
        #expect(error?.code == .wrongBackend)
    }

    /// GnuTLS 3.7 refuses to import a certificate with a duplicate extension: only the core's
    /// DuplicateExtension on that certificate explains the refusal; without it the path fails closed. The
    /// signatures are still verified with the keys (the core's parsed tbsCertificate and SPKI).
    @Test func duplicateExtensionRefusalIsExplainedOnlyByTheCore() throws {
        try F.expectExplained("duplicate-extension", anchor: "root-rsa.pem", by: [0: [.duplicateExtension]])
        let findings = try F.verify("duplicate-extension", anchor: "root-rsa.pem")
        #expect(F.failures(findings) == [0: [.libraryVerdict]], "\(findings.notes)")
    }
}
