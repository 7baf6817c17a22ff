import CertKit
import Foundation
internal import CGnuTLS

/// The `GNUTLS_CERT_*` status word of a verification, and how certkit reads each bit as a second opinion
/// (DESIGN §2). GnuTLS does not say which certificate a bit concerns, so a bit is explained by the matching core
/// check on any certificate of the path; when the core found none, the bit's check is recorded on the leaf.
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

    /// Every bit of GnuTLS 3.7 with the core checks that explain it and the check recorded otherwise.
    /// - Validity, CA flag, pathLen/keyCertSign/name constraints, revocation, unknown critical extensions: the
    ///   rules the core owns explain them; otherwise that check.
    /// - `SIGNER_CONSTRAINTS_FAILURE` has several causes (pathLen, keyCertSign, name constraints); when the core
    ///   found none of them, nobody knows which: `Signature`.
    /// - `INSECURE_ALGORITHM`: explained only by a core floor; otherwise `Signature`.
    /// - `INVALID` alone (the bare "not trusted" GnuTLS sets for algorithms it does not know): explained only by
    ///   the core's own Signature/WeakSignature; otherwise `Signature`. With another bit it adds nothing.
    /// - A bit not in this table: `Signature`.
    /// - Bits for features certkit never requests (purpose, owner, peer mismatch, OCSP): `Signature`.
    static let meanings: [(bit: GnuTLSStatus, explainedBy: Set<TrustCheck>, otherwise: TrustCheck)] = [
        (.expired, [.temporalValidity], .temporalValidity),
        (.notActivated, [.temporalValidity], .temporalValidity),
        (.signatureFailure, [.signature, .weakSignature], .signature),
        (.signerNotFound, [.signature, .missingIntermediate, .anchorTrusted], .signature),
        (.signerNotCA, [.basicConstraints, .basicConstraintsCA], .basicConstraintsCA),
        (.signerConstraintsFailure, [.basicConstraintsPathLen, .keyUsage, .nameConstraints], .signature),
        (.insecureAlgorithm, [.weakSignature, .weakKeySize, .signatureHashAlgorithms, .keySize], .signature),
        (.revoked, [.revocation], .revocation),
        (.revocationDataSuperseded, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (.revocationDataIssuedInFuture, [.revocationResponseRequired, .revocation], .revocationResponseRequired),
        (.unknownCriticalExtensions, [.criticalExtensions], .criticalExtensions),
        (.unexpectedOwner, [], .signature),
        (.mismatch, [], .signature),
        (.purposeMismatch, [], .signature),
        (.missingOCSPStatus, [], .signature),
        (.invalidOCSPStatus, [], .signature),
    ]

    /// The findings this status amounts to (empty for 0).
    var findings: [LibraryFinding] {
        guard rawValue != 0 else { return [] }
        let words = libraryDescription
        var findings: [LibraryFinding] = []
        var understood: GnuTLSStatus = [.invalid]
        for meaning in Self.meanings where contains(meaning.bit) {
            findings.append(LibraryFinding(
                index: nil, explainedBy: meaning.explainedBy, otherwise: meaning.otherwise, note: "GnuTLS: \(words)"))
            understood.insert(meaning.bit)
        }
        let unknown = subtracting(understood)
        if !unknown.isEmpty {
            // A bit nobody mapped: fail closed.
            findings.append(LibraryFinding(
                index: nil, explainedBy: [], otherwise: .signature,
                note: "GnuTLS reports status bits certkit does not map (0x\(String(unknown.rawValue, radix: 16)): \(words))"))
        } else if findings.isEmpty {
            // A bare INVALID: GnuTLS could not judge a signature (an algorithm it does not know). Only the core's
            // own refusal of that signature explains it.
            findings.append(LibraryFinding(
                index: nil, explainedBy: [.signature, .weakSignature], otherwise: .signature,
                note: "GnuTLS refused the path for a reason certkit does not map (status 0x\(String(rawValue, radix: 16)): \(words))"))
        }
        return findings
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
