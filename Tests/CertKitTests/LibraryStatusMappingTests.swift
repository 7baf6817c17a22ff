@testable import CertKit
@testable import CertKitGnuTLS
@testable import CertKitOpenSSL
import Testing

/// The library-status mappings are exhaustive and fail closed (issue 10 A): every `X509_V_ERR_*` of OpenSSL 3.0
/// and every `GNUTLS_CERT_*` bit of GnuTLS 3.7 has an explicit entry, and anything else becomes `Signature`.
@Suite("Library status mappings")
struct LibraryStatusMappingTests {
    typealias M = X509VerifyErrorMapping

    @Test func everyOpenSSL30CodeHasAnExplicitEntry() {
        // OpenSSL 3.0 defines X509_V_OK (0) through X509_V_ERR_EC_KEY_EXPLICIT_PARAMS (94), all contiguous.
        for code in Int32(0)...94 {
            #expect(M.ignored.contains(code) || M.table[code] != nil, "X509_V_ERR \(code) has no entry")
        }
        #expect(M.ignored == [0, 3], "only X509_V_OK and UNABLE_TO_GET_CRL are not failures")
    }

    @Test func aCodeAfterOpenSSL30FailsClosedAsSignature() {
        for code: Int32 in [95, 96, 200, -1] {
            #expect(M.entry(for: code) == .init(placement: .reported, explainedBy: [], otherwise: .check(.signature)))
        }
    }

    /// Entries by the rule they belong to: the checks that explain it and what it adds otherwise.
    static let fixedChecks: [(code: Int32, explainedBy: Set<TrustCheck>, otherwise: TrustCheck)] = [
        (10, [.temporalValidity], .temporalValidity),  // CERT_HAS_EXPIRED
        (9, [.temporalValidity], .temporalValidity),  // CERT_NOT_YET_VALID
        (13, [.temporalValidity], .temporalValidity),
        (14, [.temporalValidity], .temporalValidity),
        (7, [.signature, .weakSignature], .signature),  // CERT_SIGNATURE_FAILURE
        (4, [.signature, .weakSignature], .signature),
        (76, [.signature, .weakSignature], .signature),  // UNSUPPORTED_SIGNATURE_ALGORITHM
        (78, [.signature, .weakSignature], .signature),  // SIGNATURE_ALGORITHM_INCONSISTENCY
        (6, [.signature, .weakSignature], .signature),
        (24, [.signature, .weakSignature], .signature),
        (32, [.keyUsage], .keyUsage),  // KEYUSAGE_NO_CERTSIGN
        (34, [.criticalExtensions], .criticalExtensions),
        (47, [.nameConstraints], .nameConstraints), (48, [.nameConstraints], .nameConstraints),
        (49, [.nameConstraints], .nameConstraints), (51, [.nameConstraints], .nameConstraints),
        (52, [.nameConstraints], .nameConstraints), (53, [.nameConstraints], .nameConstraints),
        (23, [.revocation], .revocation),  // CERT_REVOKED
        (22, [.chainLength], .chainLength),  // CERT_CHAIN_TOO_LONG
        (5, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (8, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (11, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (12, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (15, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (16, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (33, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (35, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (36, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (44, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (54, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (66, [.keySize, .weakKeySize], .keySize), (67, [.keySize, .weakKeySize], .keySize),
        (68, [.signatureHashAlgorithms, .weakSignature], .signatureHashAlgorithms),
        (94, [.keySize], .keySize),  // EC_KEY_EXPLICIT_PARAMS: the core's certkit.ec-named-curve
        (1, [], .backendError), (17, [], .backendError), (69, [], .backendError), (70, [], .backendError),
    ]

    @Test func openSSLCodesWithAFixedCheck() {
        for expected in Self.fixedChecks {
            let entry = M.entry(for: expected.code)
            #expect(entry.explainedBy == expected.explainedBy, "X509_V_ERR \(expected.code)")
            #expect(entry.otherwise == .check(expected.otherwise), "X509_V_ERR \(expected.code)")
        }
    }

    @Test func openSSLCodesDecidedByTheParsedCertificate() {
        for code: Int32 in [37, 79] { #expect(M.entry(for: code).otherwise == .caConstraint) }
        for code: Int32 in [25, 38] { #expect(M.entry(for: code).otherwise == .pathLength) }
        for code: Int32 in [2, 18, 19, 20, 21] {
            #expect(M.entry(for: code).otherwise == .chainEnd)
            #expect(M.entry(for: code).explainedBy == [.missingIntermediate, .anchorTrusted, .signature])
        }
        #expect(M.entry(for: 41).otherwise == .invalidExtension)
        #expect(M.entry(for: 6).placement == .issued)
    }

    /// Features certkit never enables: nothing explains them, so seeing one is a Signature failure.
    @Test func openSSLCodesCertkitNeverEnablesAreSignatureFailures() {
        #expect(M.neverEnabled.count == 44)
        for code in M.neverEnabled {
            #expect(M.entry(for: code) == .init(placement: .reported, explainedBy: [], otherwise: .check(.signature)))
        }
        // Every code is in exactly one group.
        let grouped = M.table.keys.count + M.ignored.count
        #expect(grouped == 95)
    }

    @Test func everyGnuTLSBitHasAnExplicitMeaning() {
        // GnuTLS 3.7 defines bits 1, 5–12, 14–21.
        let defined: [UInt32] = [1, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21]
        let mapped = Set(GnuTLSStatus.meanings.map(\.bit.rawValue)).union([GnuTLSStatus.invalid.rawValue])
        #expect(mapped == Set(defined.map { UInt32(1) << $0 }))
    }

    @Test(arguments: GnuTLSStatus.meanings.map { $0.bit.rawValue })
    func eachGnuTLSBitAloneIsAFindingThatFailsThePathWhenUnexplained(bit: UInt32) {
        let findings = GnuTLSStatus(rawValue: bit | GnuTLSStatus.invalid.rawValue).findings
        #expect(findings.count == 1)
        var path = PathFindings(count: 2)
        path.weigh(findings, from: "gnutls")
        #expect(!path.checks[0].isEmpty, "an unexplained GnuTLS refusal must fail the path")
        let meaning = GnuTLSStatus.meanings.first { $0.bit.rawValue == bit }!
        for check in meaning.explainedBy {
            var explained = PathFindings(count: 2)
            explained.record(check, at: 1)
            explained.weigh(findings, from: "gnutls")
            #expect(explained.checks == [[], [check]], "\(check) explains bit \(bit)")
        }
    }

    @Test func gnuTLSSignerConstraintsFailureIsNeverGuessedAsNameConstraints() {
        let findings = GnuTLSStatus(rawValue: GnuTLSStatus.signerConstraintsFailure.rawValue | 2).findings
        var path = PathFindings(count: 2)
        path.weigh(findings, from: "gnutls")
        #expect(path.checks == [[.signature], []])
    }

    @Test func bareGnuTLSInvalidAndUnknownBitsAreSignatureFailures() {
        var bare = PathFindings(count: 1)
        bare.weigh(GnuTLSStatus.invalid.findings, from: "gnutls")
        #expect(bare.checks == [[.signature]])
        var explained = PathFindings(count: 1)
        explained.record(.weakSignature, at: 0)
        explained.weigh(GnuTLSStatus.invalid.findings, from: "gnutls")
        #expect(explained.checks == [[.weakSignature]])
        for unknown: UInt32 in [1 << 0, 1 << 13, 1 << 22, 1 << 30] {
            var path = PathFindings(count: 1)
            path.record(.temporalValidity, at: 0)
            path.weigh(GnuTLSStatus(rawValue: unknown | GnuTLSStatus.expired.rawValue).findings, from: "gnutls")
            #expect(path.checks == [[.temporalValidity, .signature]], "bit \(unknown)")
        }
    }
}
