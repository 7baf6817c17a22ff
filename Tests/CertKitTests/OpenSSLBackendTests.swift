@testable import CertKit
import CertKitBackends
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

/// The failed checks of `findings` by path index, empty sets left out.
private func failures(_ findings: PathFindings) -> [Int: Set<TrustCheck>] {
    var result: [Int: Set<TrustCheck>] = [:]
    for (index, checks) in findings.checks.enumerated() where !checks.isEmpty { result[index] = checks }
    return result
}

/// Midnight UTC of `day` (`yyyy-MM-dd`).
private func date(_ day: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    return formatter.date(from: day)!
}

/// `der` with its last byte (inside the signature value) flipped.
private func flippingLastByte(_ der: [UInt8]) -> [UInt8] {
    var bytes = der
    bytes[bytes.count - 1] ^= 0x01
    return bytes
}

@Suite("OpenSSLBackend: import and digests")
struct OpenSSLBackendImportTests {
    let backend = OpenSSLBackend()

    @Test func nameIsOpenSSL() {
        #expect(backend.name == "openssl")
        #expect(OpenSSLBackend.shared.name == "openssl")
        let convenience: Backend = .openssl
        #expect(convenience.name == "openssl" && convenience.description == "openssl")
        #expect(Backend.gnutls.name == "gnutls")
    }

    @Test func importsExactlyConsumedDER() throws {
        let pki = try TestPKI.openSSLBackend.get()
        try backend.checkImport(pki.der("leaf"))
        try backend.checkImport(pki.der("root"))
    }

    @Test func rejectsTrailingBytes() throws {
        let der = try TestPKI.openSSLBackend.get().der("leaf")
        let error = #expect(throws: BackendError.self) { try backend.checkImport(der + [0x00]) }
        #expect(error?.message.contains("1 trailing bytes") == true)
        #expect(error?.code == .refusedInput)
    }

    @Test func rejectsTruncatedAndGarbageWithOpenSSLReason() throws {
        let der = try TestPKI.openSSLBackend.get().der("leaf")
        let truncated = #expect(throws: BackendError.self) { try backend.checkImport(Array(der.dropLast(10))) }
        #expect(truncated?.message.hasPrefix("d2i_X509 failed: error:") == true)
        #expect(truncated?.code == .refusedInput)
        #expect((#expect(throws: BackendError.self) { try backend.checkImport([]) })?.code == .refusedInput)
        #expect((#expect(throws: BackendError.self) { try backend.checkImport([0x30, 0x03, 0x02, 0x01, 0x01]) })?.code == .refusedInput)
    }

    @Test func errorQueueDoesNotLeakBetweenCalls() throws {
        let der = try TestPKI.openSSLBackend.get().der("leaf")
        let garbage: [UInt8] = Array(der.dropLast(10))
        let first = #expect(throws: BackendError.self) { try backend.checkImport(garbage) }
        let second = #expect(throws: BackendError.self) { try backend.checkImport(garbage) }
        #expect(first?.message == second?.message)
        // A failure leaves nothing behind that could surface in a later, different error.
        let trailing = #expect(throws: BackendError.self) { try backend.checkImport(der + [0]) }
        #expect(trailing?.message.contains("error:") == false)
        try backend.checkImport(der)
    }

    @Test func digestsMatchKnownVectors() throws {
        let abc = Array("abc".utf8)
        #expect(try backend.digest(.sha256, of: abc) == hexBytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(try backend.digest(.sha1, of: abc) == hexBytes("a9993e364706816aba3e25717850c26c9cd0d89d"))
        #expect(try backend.digest(.sha256, of: []) == hexBytes("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
        #expect(try backend.digest(.sha1, of: []) == hexBytes("da39a3ee5e6b4b0d3255bfef95601890afd80709"))
    }

    /// Fingerprints, pins and exception bindings come from the backends' libraries: both libraries give the same
    /// digests of every certificate (and its key) in the system bundle.
    @Test func digestsOfBothLibrariesAgreeOnTheSystemBundle() throws {
        let others = BackendRegistry.standard.allBackends().filter { $0.name != backend.name }
        #expect(!others.isEmpty)
        let certificates = SystemTrustStore.certificates
        #expect(certificates.count > 50)
        for certificate in certificates {
            for bytes in [certificate.derEncoded, certificate.publicKey.derEncoded] {
                for algorithm in DigestAlgorithm.allCases {
                    let expected = try backend.digest(algorithm, of: bytes)
                    for other in others { #expect(try other.digest(algorithm, of: bytes) == expected, "\(other.name)") }
                }
            }
        }
    }
}

@Suite("OpenSSLBackend: verify")
struct OpenSSLBackendVerifyTests {
    let backend = OpenSSLBackend()
    let pki: TestPKI
    let at2030 = date("2030-06-01")

    init() throws { pki = try TestPKI.openSSLBackend.get() }

    /// Verifies the named certificates (leaf first) with the named anchors.
    private func verify(
        _ names: [String], anchors: [String] = ["root"], endsAtAnchor: Bool = true, at verifyDate: Date? = nil,
        crls: [String] = []
    ) throws -> PathFindings {
        let store = try backend.prepareAnchors(anchors.map(pki.certificate))
        let path = CandidatePath(certificates: try names.map(pki.certificate), endsAtAnchor: endsAtAnchor)
        return try backend.verify(
            path, anchors: store, at: verifyDate ?? at2030, crls: try crls.map { try pki.crl(issuedBy: $0) })
    }

    @Test func validThreeLevelChainHasNoFindings() throws {
        let findings = try verify(["leaf", "int", "root"])
        #expect(failures(findings) == [:])
        #expect(findings.checks.count == 3)
    }

    @Test func expiredLeaf() throws {
        #expect(failures(try verify(["leaf-expired", "int", "root"])) == [0: [.libraryVerdict]])
    }

    @Test func notYetValidLeaf() throws {
        #expect(failures(try verify(["leaf-future", "int", "root"])) == [0: [.libraryVerdict]])
    }

    @Test func everythingNotYetValidBefore2020() throws {
        let findings = try verify(["leaf", "int", "root"], at: date("2019-06-01"))
        #expect(failures(findings) == [0: [.libraryVerdict], 1: [.libraryVerdict], 2: [.libraryVerdict]])
    }

    @Test func expiredRootAmongAnchorsSharingItsName() throws {
        // root and root-expired share subject and key: OpenSSL must verify the anchor the path ends at.
        let anchors = ["root", "root-expired"]
        #expect(failures(try verify(["leaf", "int", "root-expired"], anchors: anchors)) == [2: [.libraryVerdict]])
        #expect(failures(try verify(["leaf", "int", "root"], anchors: anchors)) == [:])
        #expect(failures(try verify(["leaf", "int", "root"], anchors: anchors.reversed())) == [:])
    }

    @Test func badSignatureOnLeaf() throws {
        let store = try backend.prepareAnchors([pki.certificate("root")])
        let leaf = try Certificate(derEncoded: flippingLastByte(pki.der("leaf")))
        let path = CandidatePath(
            certificates: [leaf, try pki.certificate("int"), try pki.certificate("root")], endsAtAnchor: true)
        #expect(failures(try backend.verify(path, anchors: store, at: at2030, crls: [])) == [0: [.signature]])
    }

    @Test func badSignatureOnIntermediate() throws {
        let store = try backend.prepareAnchors([pki.certificate("root")])
        let intermediate = try Certificate(derEncoded: flippingLastByte(pki.der("int")))
        let path = CandidatePath(
            certificates: [try pki.certificate("leaf"), intermediate, try pki.certificate("root")], endsAtAnchor: true)
        #expect(failures(try backend.verify(path, anchors: store, at: at2030, crls: [])) == [1: [.signature]])
    }

    @Test func intermediateThatIsNotACA() throws {
        #expect(failures(try verify(["leaf-noca", "int-noca", "root"])) == [1: [.libraryVerdict]])
    }

    @Test func pathLengthExceededOnTheConstrainedCA() throws {
        let findings = try verify(["leaf-pl", "int-pl", "root-pl0"], anchors: ["root-pl0"])
        #expect(failures(findings) == [2: [.libraryVerdict]])
    }

    @Test func intermediateWithoutKeyCertSign() throws {
        #expect(failures(try verify(["leaf-nokcs", "int-nokcs", "root"])) == [1: [.libraryVerdict]])
    }

    @Test func selfSignedNonCALeafAsItsOwnAnchor() throws {
        #expect(failures(try verify(["self-leaf"], anchors: ["self-leaf"])) == [:])
    }

    @Test func caIssuedLeafAsItsOwnAnchor() throws {
        #expect(failures(try verify(["leaf"], anchors: ["leaf"])) == [:])
    }

    @Test func intermediateAsAnchor() throws {
        #expect(failures(try verify(["leaf", "int"], anchors: ["int"])) == [:])
    }

    @Test func incompletePathReportsMissingIntermediateOnItsLastCertificate() throws {
        #expect(failures(try verify(["leaf"], endsAtAnchor: false)) == [0: [.libraryVerdict]])
        #expect(failures(try verify(["leaf", "int"], endsAtAnchor: false)) == [1: [.libraryVerdict]])
    }

    @Test func unanchoredSelfSignedRootIsNotTrusted() throws {
        let findings = try verify(["unknown-leaf", "unknown-int", "unknown-root"], endsAtAnchor: false)
        #expect(failures(findings) == [2: [.libraryVerdict]])
        #expect(failures(try verify(["self-leaf"], endsAtAnchor: false)) == [0: [.libraryVerdict]])
    }

    @Test func revokedLeaf() throws {
        #expect(failures(try verify(["leaf-revoked", "int", "root"], crls: ["int"])) == [0: [.revocation]])
    }

    @Test func unrevokedLeafWithCRL() throws {
        #expect(failures(try verify(["leaf", "int", "root"], crls: ["int"])) == [:])
    }

    @Test func crlFromAnotherIssuerRevokesNothing() throws {
        // unknown-root's CRL lists serial 0x1001, the serial of leaf-revoked, but it is not leaf-revoked's issuer.
        #expect(failures(try verify(["leaf-revoked", "int", "root"], crls: ["unknown-root"])) == [:])
    }

    @Test func pathEndingAtAnAnchorThatWasNotPreparedIsABackendError() throws {
        #expect((#expect(throws: BackendError.self) { try verify(["leaf", "int"], anchors: ["root"]) })?.code == .wrongBackend)
    }

    @Test func storeFromAnotherBackendIsABackendError() throws {
        final class ForeignStore: PreparedAnchorStore {
            let anchors: [Certificate] = []
        }
        let path = CandidatePath(certificates: [try pki.certificate("leaf")], endsAtAnchor: false)
        let error = #expect(throws: BackendError.self) {
            try backend.verify(path, anchors: ForeignStore(), at: at2030, crls: [])
        }
        #expect(error?.code == .wrongBackend)
    }
}

@Suite("OpenSSLBackend: algorithms are the core's policy")
struct OpenSSLBackendAlgorithmTests {
    let backend = OpenSSLBackend()
    let pki: TestPKI

    init() throws { pki = try TestPKI.openSSLBackend.get() }

    private func verify(_ leaf: Certificate) throws -> PathFindings {
        let root = try pki.certificate("rsa-root")
        let store = try backend.prepareAnchors([root])
        let path = CandidatePath(certificates: [leaf, root], endsAtAnchor: true)
        return try backend.verify(path, anchors: store, at: date("2030-06-01"), crls: [])
    }

    @Test func sha1SignatureAndSmallKeysPassAtLevelZero() throws {
        #expect(failures(try verify(pki.certificate("leaf-sha1"))) == [:])
        #expect(failures(try verify(pki.certificate("leaf-rsa512"))) == [:])
    }

    @Test func md5SignatureIsLeftToTheCore() throws {
        #expect(failures(try verify(pki.certificate("leaf-md5"))) == [:])
        // The core does not verify MD5 signatures (the certificate is a fatal WeakSignature whatever its
        // signature); OpenSSL's own signature failure on a broken one is explained by that WeakSignature and
        // adds nothing, and without it fails closed as Signature.
        let leaf = try Certificate(derEncoded: flippingLastByte(pki.der("leaf-md5")))
        let root = try pki.certificate("rsa-root")
        let path = CandidatePath(certificates: [leaf, root], endsAtAnchor: true)
        let library = try backend.libraryVerdict(
            on: path, anchors: try backend.prepareAnchors([root]), at: date("2030-06-01"), crls: [])
        var explained = PathFindings(count: 2)
        explained.record(.weakSignature, at: 0)
        explained.weigh(library, from: backend.name)
        #expect(explained.checks == [[.weakSignature], []])
        #expect(failures(try verify(leaf)) == [0: [.libraryVerdict]])
    }

    @Test func notesCarryOpenSSLsWords() throws {
        let store = try backend.prepareAnchors([pki.certificate("root")])
        let path = CandidatePath(
            certificates: try ["leaf-expired", "int", "root"].map(pki.certificate), endsAtAnchor: true)
        let findings = try backend.verify(path, anchors: store, at: date("2030-06-01"), crls: [])
        #expect(findings.notes == ["[0] LibraryVerdict (certkit.library-verdict): openssl: certificate has expired (X509_V_ERR 10) [expired]"])
    }
}

@Suite("OpenSSLBackend: extensions and CRL problems")
struct OpenSSLBackendExtensionTests {
    let backend = OpenSSLBackend()
    let pki: TestPKI

    init() throws { pki = try TestPKI.openSSLBackend.get() }

    private func verify(_ certificates: [Certificate], crls: [CertificateRevocationList] = []) throws -> PathFindings {
        let store = try backend.prepareAnchors([pki.certificate("root")])
        let path = CandidatePath(certificates: certificates, endsAtAnchor: true)
        return try backend.verify(path, anchors: store, at: date("2030-06-01"), crls: crls)
    }

    /// Which critical extensions are acceptable is the core's rule (certkit.critical-extensions): OpenSSL runs with
    /// X509_V_FLAG_IGNORE_CRITICAL, as GnuTLS runs with GNUTLS_VERIFY_IGNORE_UNKNOWN_CRIT_EXTENSIONS.
    @Test func unknownCriticalExtensionIsTheCoresRule() throws {
        let certificates = try ["leaf-crit", "int", "root"].map(pki.certificate)
        #expect(failures(try verify(certificates)) == [:])
        let core = CorePolicy.findings(for: PathContext(
            path: CandidatePath(certificates: certificates, endsAtAnchor: true), policy: .basicX509,
            date: date("2030-06-01")))
        #expect(core.checks[0].contains(.criticalExtensions))
        #expect(core.rule(for: .criticalExtensions, at: 0) == TrustRules.criticalExtensions)
    }

    @Test func nameConstraintViolationOnTheViolatingCertificate() throws {
        let findings = try verify(["leaf-nc", "int-nc", "root"].map(pki.certificate))
        #expect(failures(findings) == [0: [.libraryVerdict]])
    }

    @Test func crlWithBadSignatureIsNeverUsedAndLeavesTheStatusUnknown() throws {
        // The core refuses the CRL (its signature does not verify) and never hands it to OpenSSL: the leaf's
        // revocation status is unknown, not "not revoked".
        let crl = try CertificateRevocationList(derEncoded: flippingLastByte(pki.der("int.crl")))
        let findings = try verify(["leaf-revoked", "int", "root"].map(pki.certificate), crls: [crl])
        #expect(failures(findings) == [0: [.revocationResponseRequired]])
        #expect(findings.notes.contains { $0.contains("signature") })
        let genuine = try CertificateRevocationList(derEncoded: pki.der("int.crl"))
        let both = try verify(["leaf-revoked", "int", "root"].map(pki.certificate), crls: [crl, genuine])
        #expect(failures(both) == [0: [.revocation]], "an invalid CRL never masks a valid one")
    }
}

@Suite("OpenSSLBackend: OpenSSL follows the candidate path")
struct OpenSSLBackendFixturePathTests {
    /// A certificate bundle from Tests/Fixtures/scenarios.
    private func fixture(_ relativePath: String) throws -> [Certificate] {
        let url = FixtureLocator.scenarios.appendingPathComponent(relativePath)
        return try CertificateBundle.decode([UInt8](try Data(contentsOf: url))).certificates
    }

    @Test(arguments: [("duplicate-extension", TrustCheck.duplicateExtension), ("malformed-extension", .malformedExtension)])
    func leafWithExtensionsOpenSSLCannotCacheStillChains(scenario: String, expected: TrustCheck) throws {
        // OpenSSL's own chain building finds no issuer for such a leaf (it cannot cache its extensions); the
        // check_issued hook makes it follow the path, so no MissingIntermediate, and every signature is verified.
        let backend = OpenSSLBackend()
        let root = try #require(fixture("\(scenario)/root-rsa.pem").first)
        let chain = try fixture("\(scenario)/chain.pem")
        #expect(chain.count == 2)
        let store = try backend.prepareAnchors([root])
        let findings = try backend.verify(
            CandidatePath(certificates: chain + [root], endsAtAnchor: true), anchors: store, at: date("2030-06-01"),
            crls: [])
        #expect(failures(findings).values.allSatisfy { $0.isSubset(of: [expected]) })

        let forged = try Certificate(derEncoded: flippingLastByte(chain[0].derEncoded))
        let forgedFindings = try backend.verify(
            CandidatePath(certificates: [forged, chain[1], root], endsAtAnchor: true), anchors: store,
            at: date("2030-06-01"), crls: [])
        #expect(forgedFindings.checks[0].contains(.signature))
        #expect(!forgedFindings.checks[0].contains(.missingIntermediate))
    }
}
