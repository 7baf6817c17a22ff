import Foundation
internal import CGnuTLS

/// The `GNUTLS_CERT_*` status bits certkit maps, with GnuTLS's names for notes.
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
    static let revocationDataIssuedInFuture = Self(rawValue: GNUTLS_CERT_REVOCATION_DATA_ISSUED_IN_FUTURE.rawValue)
    static let signerConstraintsFailure = Self(rawValue: GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE.rawValue)
    static let unknownCriticalExtensions = Self(rawValue: GNUTLS_CERT_UNKNOWN_CRIT_EXTENSIONS.rawValue)

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
