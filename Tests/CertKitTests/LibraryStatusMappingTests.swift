@testable import CertKit
@testable import CertKitGnuTLS
@testable import CertKitOpenSSL
import Testing

/// The backends name every library status as a neutral fact, and the core alone reads them
/// (`LibraryVerdictInterpretation`): every `X509_V_ERR_*` of OpenSSL 3.0 and every `GNUTLS_CERT_*` bit of GnuTLS
/// 3.7 has a name; a code or bit without one is `unknown`; a fact nothing explains is a `LibraryVerdict` failure,
/// never a core check the core did not fail.
@Suite("Library status mappings")
struct LibraryStatusMappingTests {
    typealias M = X509VerifyStatus

    @Test func everyOpenSSL30CodeHasAName() {
        // OpenSSL 3.0 defines X509_V_OK (0) through X509_V_ERR_EC_KEY_EXPLICIT_PARAMS (94), all contiguous.
        for code in Int32(1)...94 {
            #expect(M.table[code] != nil, "X509_V_ERR \(code) has no name")
        }
        #expect(M.table.count == 94)
        #expect(M.status(of: 3) == .noCRL)
        #expect(M.facts([VerificationFailure(depth: 0, code: 0)]).isEmpty, "X509_V_OK is no fact")
    }

    @Test func aCodeAfterOpenSSL30IsUnknown() {
        for code: Int32 in [95, 96, 200, -1] { #expect(M.status(of: code) == .unknown) }
    }

    /// Codes by meaning.
    static let named: [(code: Int32, status: LibraryFact.Status)] = [
        (10, .expired), (14, .expired), (9, .notYetValid), (13, .notYetValid),
        (7, .signatureFailure), (4, .signatureFailure), (76, .signatureFailure), (78, .signatureFailure),
        (6, .issuerKeyUnusable), (24, .issuerKeyUnusable), (37, .notACA), (79, .notACA), (25, .pathLengthExceeded), (38, .pathLengthExceeded),
        (32, .keyUsageNoCertSign), (34, .unhandledCriticalExtension), (41, .invalidExtension),
        (47, .nameConstraintViolation), (48, .nameConstraintViolation), (49, .nameConstraintViolation),
        (51, .nameConstraintViolation), (52, .nameConstraintViolation), (53, .nameConstraintViolation),
        (23, .revoked), (22, .chainTooLong), (2, .noIssuer), (18, .noIssuer), (19, .noIssuer), (20, .noIssuer),
        (21, .noIssuer), (5, .crlRefused), (8, .crlRefused), (33, .crlRefused), (54, .crlRefused), (66, .keyTooSmall),
        (67, .keyTooSmall), (68, .digestTooWeak), (94, .explicitECParameters), (1, .libraryFailure),
        (17, .libraryFailure), (69, .libraryFailure), (70, .libraryFailure),
    ]

    @Test func openSSLCodesByMeaning() {
        for expected in Self.named { #expect(M.status(of: expected.code) == expected.status, "X509_V_ERR \(expected.code)") }
        #expect(M.neverEnabled.count == 44)
        for code in M.neverEnabled { #expect(M.status(of: code) == .notRequested) }
    }

    @Test func everyGnuTLSBitHasAName() {
        // GnuTLS 3.7 defines bits 1, 5–12, 14–21.
        let defined: [UInt32] = [1, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21]
        let mapped = Set(GnuTLSStatus.meanings.map(\.bit.rawValue)).union([GnuTLSStatus.invalid.rawValue])
        #expect(mapped == Set(defined.map { UInt32(1) << $0 }))
    }

    @Test(arguments: GnuTLSStatus.meanings.map { $0.bit.rawValue })
    func eachGnuTLSBitAloneIsOneFactThatIsALibraryVerdictWhenUnexplained(bit: UInt32) {
        let facts = GnuTLSStatus(rawValue: bit | GnuTLSStatus.invalid.rawValue).facts
        #expect(facts.count == 1)
        var path = PathFindings(count: 2)
        path.weigh(facts, from: "gnutls")
        #expect(path.checks == [[.libraryVerdict], []], "an unexplained GnuTLS refusal is a LibraryVerdict on the leaf")
        let status = GnuTLSStatus.meanings.first { $0.bit.rawValue == bit }!.status
        for check in LibraryVerdictInterpretation.explanation(of: status).checks {
            var explained = PathFindings(count: 2)
            explained.record(check, at: 1)
            explained.weigh(facts, from: "gnutls")
            #expect(explained.checks == [[], [check]], "\(check) explains bit \(bit)")
        }
    }

    @Test("GnuTLS's signer-constraints failure is never guessed as a core check")
    func gnuTLSSignerConstraintsFailureIsNeverGuessedAsACoreCheck() {
        var path = PathFindings(count: 2)
        path.weigh(GnuTLSStatus(rawValue: GnuTLSStatus.signerConstraintsFailure.rawValue | 2).facts, from: "gnutls")
        #expect(path.checks == [[.libraryVerdict], []])
        #expect(path.notes.count == 1 && path.notes[0].hasPrefix("[0] LibraryVerdict (certkit.library-verdict): gnutls: "))
    }

    @Test("a bare GnuTLS INVALID and unknown bits fail closed as LibraryVerdict")
    func bareGnuTLSInvalidAndUnknownBitsFailClosed() {
        var bare = PathFindings(count: 1)
        bare.weigh(GnuTLSStatus.invalid.facts, from: "gnutls")
        #expect(bare.checks == [[.libraryVerdict]])
        var explained = PathFindings(count: 1)
        explained.record(.weakSignature, at: 0)
        explained.weigh(GnuTLSStatus.invalid.facts, from: "gnutls")
        #expect(explained.checks == [[.weakSignature]])
        for unknown: UInt32 in [1 << 0, 1 << 13, 1 << 22, 1 << 30] {
            var path = PathFindings(count: 1)
            path.record(.temporalValidity, at: 0)
            path.weigh(GnuTLSStatus(rawValue: unknown | GnuTLSStatus.expired.rawValue).facts, from: "gnutls")
            #expect(path.checks == [[.temporalValidity, .libraryVerdict]], "bit \(unknown)")
        }
    }

    /// A fact that names a certificate is explained only by a core failure on that certificate.
    @Test("a named library fact is explained only by a core failure on its own certificate")
    func aNamedFactIsExplainedOnlyOnItsOwnCertificate() {
        var elsewhere = PathFindings(count: 2)
        elsewhere.record(.temporalValidity, at: 0)
        elsewhere.weigh([LibraryFact(.expired, index: 1, words: "w")], from: "lib")
        #expect(elsewhere.checks == [[.temporalValidity], [.libraryVerdict]])
        var same = PathFindings(count: 2)
        same.record(.temporalValidity, at: 1)
        same.weigh([LibraryFact(.expired, index: 1, words: "w")], from: "lib")
        #expect(same.checks == [[], [.temporalValidity]])
    }

    /// An unusable issuer key (OpenSSL's "unable to decode issuer public key", named at the issuer) is explained by
    /// the signature that key makes: a core Signature failure on the certificate *below* the one named, never one
    /// above it.
    @Test("an unusable issuer key is explained by the signature below the certificate named, not above")
    func issuerKeyUnusableLooksBelow() {
        let fact = LibraryFact(.issuerKeyUnusable, index: 1, words: "w")
        var below = PathFindings(count: 3)
        below.record(.signature, at: 0)
        below.weigh([fact], from: "lib")
        #expect(below.checks == [[.signature], [], []])
        var above = PathFindings(count: 3)
        above.record(.signature, at: 2)
        above.weigh([fact], from: "lib")
        #expect(above.checks == [[.libraryVerdict], [], [.signature]])
    }

    /// Only "no CRL for this certificate" is no refusal (certkit checks revocation against the CRLs it is given);
    /// a CRL whose issuer OpenSSL cannot find is its refusal of that CRL, a LibraryVerdict unless the core failed it.
    @Test("OpenSSL's unable-to-get-CRL-issuer is a refusal, unable-to-get-CRL is none")
    func crlIssuerMissingIsARefusal() {
        var missingIssuer = PathFindings(count: 2)
        missingIssuer.weigh(M.facts([VerificationFailure(depth: 0, code: 33)]), from: "openssl")
        #expect(missingIssuer.checks == [[.libraryVerdict], []])
        var noCRL = PathFindings(count: 2)
        noCRL.weigh(M.facts([VerificationFailure(depth: 0, code: 3)]), from: "openssl")
        #expect(noCRL.checks == [[], []])
    }

    /// Every status that is not "no refusal" fails closed when nothing explains it, and only as LibraryVerdict.
    @Test(arguments: LibraryFact.Status.allCases)
    func anUnexplainedFactIsALibraryVerdictAndNothingElse(status: LibraryFact.Status) {
        var path = PathFindings(count: 3)
        path.weigh([LibraryFact(status, index: 2, words: "w")], from: "lib")
        if LibraryVerdictInterpretation.explanation(of: status).scope == .noRefusal {
            #expect(path.checks == [[], [], []])
        } else {
            #expect(path.checks.flatMap { $0 } == [.libraryVerdict], "\(status)")
            #expect(path.rule(for: .libraryVerdict, at: path.checks.firstIndex { !$0.isEmpty }!) == TrustRules.libraryVerdict)
        }
    }
}
