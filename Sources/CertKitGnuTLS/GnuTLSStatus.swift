import CertKit
import Foundation
internal import CGnuTLS

/// The `GNUTLS_CERT_*` status word of a verification, each bit named as a neutral ``LibraryFact/Status`` for the
/// audit mode. What a bit means for the verdict is decided by the core (`LibraryVerdictInterpretation`).
struct GnuTLSStatus: OptionSet {
    let rawValue: UInt32

    static let invalid = Self(rawValue: GNUTLS_CERT_INVALID.rawValue)
    static let revoked = Self(rawValue: GNUTLS_CERT_REVOKED.rawValue)
    static let signerNotFound = Self(rawValue: GNUTLS_CERT_SIGNER_NOT_FOUND.rawValue)
    static let signerNotCA = Self(rawValue: GNUTLS_CERT_SIGNER_NOT_CA.rawValue)
    static let insecureAlgorithm = Self(rawValue: GNUTLS_CERT_INSECURE_ALGORITHM.rawValue)
    static let notActivated = Self(rawValue: GNUTLS_CERT_NOT_ACTIVATED.rawValue)
    static let expired = Self(rawValue: GNUTLS_CERT_EXPIRED.rawValue)
    static let signatureFailure = Self(rawValue: GNUTLS_CERT_SIGNATURE_FAILURE.rawValue)
    static let revocationDataSuperseded = Self(rawValue: GNUTLS_CERT_REVOCATION_DATA_SUPERSEDED.rawValue)
    static let unexpectedOwner = Self(rawValue: GNUTLS_CERT_UNEXPECTED_OWNER.rawValue)
    static let revocationDataIssuedInFuture = Self(rawValue: GNUTLS_CERT_REVOCATION_DATA_ISSUED_IN_FUTURE.rawValue)
    static let signerConstraintsFailure = Self(rawValue: GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE.rawValue)
    static let mismatch = Self(rawValue: GNUTLS_CERT_MISMATCH.rawValue)
    static let purposeMismatch = Self(rawValue: GNUTLS_CERT_PURPOSE_MISMATCH.rawValue)
    static let missingOCSPStatus = Self(rawValue: GNUTLS_CERT_MISSING_OCSP_STATUS.rawValue)
    static let invalidOCSPStatus = Self(rawValue: GNUTLS_CERT_INVALID_OCSP_STATUS.rawValue)
    static let unknownCriticalExtensions = Self(rawValue: GNUTLS_CERT_UNKNOWN_CRIT_EXTENSIONS.rawValue)

    /// Every bit of GnuTLS 3.7 but `INVALID` (which accompanies every failure bit), by its meaning.
    static let meanings: [(bit: GnuTLSStatus, status: LibraryFact.Status)] = [
        (.expired, .expired),
        (.notActivated, .notYetValid),
        (.signatureFailure, .signatureFailure),
        (.signerNotFound, .noIssuer),
        (.signerNotCA, .notACA),
        (.signerConstraintsFailure, .signerConstraints),
        (.insecureAlgorithm, .insecureAlgorithm),
        (.revoked, .revoked),
        (.revocationDataSuperseded, .crlRefused),
        (.revocationDataIssuedInFuture, .crlRefused),
        (.unknownCriticalExtensions, .unhandledCriticalExtension),
        (.unexpectedOwner, .notRequested),
        (.mismatch, .notRequested),
        (.purposeMismatch, .notRequested),
        (.missingOCSPStatus, .notRequested),
        (.invalidOCSPStatus, .notRequested),
    ]

    /// The facts this status word amounts to (none for 0): one per named bit; bits without a name are one
    /// ``LibraryFact/Status/unknown``; `INVALID` alone is ``LibraryFact/Status/bareInvalid``. GnuTLS names no
    /// certificate, so no fact has an index.
    var facts: [LibraryFact] {
        guard rawValue != 0 else { return [] }
        let words = libraryDescription
        var facts: [LibraryFact] = []
        var understood: GnuTLSStatus = [.invalid]
        for meaning in Self.meanings where contains(meaning.bit) {
            facts.append(LibraryFact(meaning.status, words: words))
            understood.insert(meaning.bit)
        }
        let unknown = subtracting(understood)
        if !unknown.isEmpty {
            facts.append(LibraryFact(
                .unknown, words: "status bits 0x\(String(unknown.rawValue, radix: 16)) (\(words))"))
        } else if facts.isEmpty {
            facts.append(LibraryFact(.bareInvalid, words: "status 0x\(String(rawValue, radix: 16)) (\(words))"))
        }
        return facts
    }

    /// GnuTLS's description of the status word (`gnutls_certificate_verification_status_print`).
    var libraryDescription: String {
        var printed = gnutls_datum_t(data: nil, size: 0)
        guard gnutls_certificate_verification_status_print(rawValue, GNUTLS_CRT_X509, &printed, 0) >= 0 else {
            return "status 0x\(String(rawValue, radix: 16))"
        }
        return String(decoding: GnuTLSLibrary.takeDatum(printed), as: UTF8.self)
            .trimmingCharacters(in: ["\0"])
    }
}
