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
        #expect(throws: BackendError.self) { try backend.checkImport(der + [0x00]) }
        #expect(throws: BackendError.self) { try backend.checkImport(der + der) }
    }

    @Test func rejectsTruncatedAndGarbage() throws {
        let der = try F.derBlocks("valid-chain-rsa/root-rsa.pem")[0]
        #expect(throws: BackendError.self) { try backend.checkImport(Array(der.dropLast())) }
        #expect(throws: BackendError.self) { try backend.checkImport([0x30, 0x03, 0x02, 0x01, 0x00]) }
        #expect(throws: BackendError.self) { try backend.checkImport([]) }
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
        #expect(F.failures(findings) == [0: [.temporalValidity]], "\(findings.notes)")
    }

    @Test func notYetValidLeaf() throws {
        let findings = try F.verify("not-yet-valid-leaf-rsa", anchor: "root-rsa.pem")
        #expect(F.failures(findings) == [0: [.temporalValidity]], "\(findings.notes)")
    }

    @Test func expiredIntermediate() throws {
        let findings = try F.verify("expired-intermediate-rsa", anchor: "root-rsa.pem")
        #expect(F.failures(findings) == [1: [.temporalValidity]], "\(findings.notes)")
    }

    @Test func expiredRoot() throws {
        let findings = try F.verify("expired-anchor-rsa", anchor: "root-expired-rsa.pem")
        #expect(F.failures(findings) == [2: [.temporalValidity]], "\(findings.notes)")
    }

    @Test func validChainIsExpiredFarInTheFuture() throws {
        let findings = try F.verify("valid-chain-rsa", anchor: "root-rsa.pem", at: Date(timeIntervalSince1970: 4_102_444_800 * 2))
        #expect(F.failures(findings).keys.sorted() == [0, 1, 2])
        #expect(findings.checks.allSatisfy { $0 == [.temporalValidity] })
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
        let findings = try F.verify("intermediate-not-ca", anchor: "root-rsa.pem")
        #expect(F.failures(findings) == [1: [.basicConstraintsCA]], "\(findings.notes)")
    }

    @Test func intermediateWithoutBasicConstraints() throws {
        for scenario in ["intermediate-no-basic-constraints", "intermediate-v1"] {
            let findings = try F.verify(scenario, anchor: "root-rsa.pem")
            #expect(F.failures(findings) == [1: [.basicConstraints]], "\(scenario): \(findings.notes)")
        }
    }

    @Test func pathLengthExceeded() throws {
        let findings = try F.verify("path-length-exceeded", anchor: "root-rsa.pem")
        // leaf <- Int L2 <- Int L1 (pathlen:0) <- Root: Int L1's constraint is the one exceeded.
        #expect(findings.checks.count == 4)
        #expect(F.failures(findings) == [2: [.basicConstraintsPathLen]], "\(findings.notes)")
    }

    @Test func caWithoutKeyCertSign() throws {
        let findings = try F.verify("ca-key-usage-no-certsign", anchor: "root-rsa.pem")
        #expect(F.failures(findings) == [1: [.keyUsage]], "\(findings.notes)")
    }

    @Test func nameConstraintViolationIsOnTheLeaf() throws {
        let findings = try F.verify("name-constraints-dns-excluded", anchor: "root-rsa.pem")
        #expect(F.failures(findings) == [0: [.nameConstraints]], "\(findings.notes)")
        let allowed = try F.verify("name-constraints-not-violated", anchor: "root-rsa.pem")
        #expect(F.failures(allowed).isEmpty, "\(allowed.notes)")
    }

    // MARK: incomplete paths

    @Test func missingIntermediate() throws {
        let chain = try F.certificates("missing-intermediate/chain.pem")
        let store = try backend.prepareAnchors(try F.certificates("missing-intermediate/root-rsa.pem"))
        let findings = try backend.verify(
            CandidatePath(certificates: [chain[0]], endsAtAnchor: false), anchors: store, at: F.verifyDate, crls: []
        )
        #expect(F.failures(findings) == [0: [.missingIntermediate]], "\(findings.notes)")
    }

    @Test func unknownSelfSignedRoot() throws {
        let chain = try F.certificates("untrusted-root/chain.pem")
        #expect(chain.count == 3)
        let store = try backend.prepareAnchors(try F.certificates("untrusted-root/other-root-rsa.pem"))
        let findings = try backend.verify(
            CandidatePath(certificates: chain, endsAtAnchor: false), anchors: store, at: F.verifyDate, crls: []
        )
        #expect(F.failures(findings) == [2: [.anchorTrusted]], "\(findings.notes)")
    }

    @Test func selfSignedLeafThatIsNotAnAnchor() throws {
        let leaf = try F.certificates("leaf-anchor-self-signed-rsa/chain.pem")[0]
        let store = try backend.prepareAnchors(try F.certificates("valid-chain-rsa/root-rsa.pem"))
        let findings = try backend.verify(
            CandidatePath(certificates: [leaf], endsAtAnchor: false), anchors: store, at: F.verifyDate, crls: []
        )
        #expect(F.failures(findings) == [0: [.anchorTrusted]], "\(findings.notes)")
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
        #expect(throws: BackendError.self) {
            try backend.verify(path, anchors: ForeignStore(), at: F.verifyDate, crls: [])
        }
    }

    /// GnuTLS 3.7 refuses certificates with a duplicate extension; the backend reports DuplicateExtension and
    /// still verifies the signatures with the keys (the core's parsed tbsCertificate and SPKI).
    @Test func duplicateExtensionIsReportedNotThrown() throws {
        let findings = try F.verify("duplicate-extension", anchor: "root-rsa.pem")
        #expect(F.failures(findings) == [0: [.duplicateExtension]], "\(findings.notes)")
    }
}
