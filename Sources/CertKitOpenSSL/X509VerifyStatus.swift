import CertKit
internal import COpenSSL

/// OpenSSL's `X509_V_ERR_*` codes (OpenSSL 3.0: 0…94) as the core's neutral ``LibraryFact/Status`` values, for
/// the audit mode. This file only names what OpenSSL said; what it means for the verdict is decided by the core
/// (`LibraryVerdictInterpretation`). A code without a name here is ``LibraryFact/Status/unknown``.
enum X509VerifyStatus {
    /// Every code of OpenSSL 3.0 but `X509_V_OK`, by its meaning.
    static let table: [Int32: LibraryFact.Status] = {
        var table: [Int32: LibraryFact.Status] = [:]
        func add(_ codes: [Int32], _ status: LibraryFact.Status) {
            for code in codes { table[code] = status }
        }
        add([X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD], .expired)
        add([X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD], .notYetValid)
        add([X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE,
             X509_V_ERR_UNSUPPORTED_SIGNATURE_ALGORITHM, X509_V_ERR_SIGNATURE_ALGORITHM_INCONSISTENCY], .signatureFailure)
        add([X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY, X509_V_ERR_NO_ISSUER_PUBLIC_KEY], .issuerKeyUnusable)
        add([X509_V_ERR_INVALID_CA, X509_V_ERR_INVALID_NON_CA], .notACA)
        add([X509_V_ERR_PATH_LENGTH_EXCEEDED, X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED], .pathLengthExceeded)
        add([X509_V_ERR_KEYUSAGE_NO_CERTSIGN], .keyUsageNoCertSign)
        add([X509_V_ERR_INVALID_EXTENSION], .invalidExtension)
        add([X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION], .unhandledCriticalExtension)
        add([X509_V_ERR_PERMITTED_VIOLATION, X509_V_ERR_EXCLUDED_VIOLATION, X509_V_ERR_SUBTREE_MINMAX,
             X509_V_ERR_UNSUPPORTED_CONSTRAINT_TYPE, X509_V_ERR_UNSUPPORTED_CONSTRAINT_SYNTAX,
             X509_V_ERR_UNSUPPORTED_NAME_SYNTAX], .nameConstraintViolation)
        add([X509_V_ERR_CERT_REVOKED], .revoked)
        add([X509_V_ERR_CERT_CHAIN_TOO_LONG], .chainTooLong)
        add([X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
             X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
             X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE], .noIssuer)
        add([X509_V_ERR_UNABLE_TO_DECRYPT_CRL_SIGNATURE, X509_V_ERR_CRL_SIGNATURE_FAILURE, X509_V_ERR_CRL_NOT_YET_VALID,
             X509_V_ERR_CRL_HAS_EXPIRED, X509_V_ERR_ERROR_IN_CRL_LAST_UPDATE_FIELD,
             X509_V_ERR_ERROR_IN_CRL_NEXT_UPDATE_FIELD, X509_V_ERR_UNABLE_TO_GET_CRL_ISSUER,
             X509_V_ERR_KEYUSAGE_NO_CRL_SIGN, X509_V_ERR_UNHANDLED_CRITICAL_CRL_EXTENSION,
             X509_V_ERR_DIFFERENT_CRL_SCOPE, X509_V_ERR_CRL_PATH_VALIDATION_ERROR], .crlRefused)
        add([X509_V_ERR_UNABLE_TO_GET_CRL], .noCRL)
        add([X509_V_ERR_EE_KEY_TOO_SMALL, X509_V_ERR_CA_KEY_TOO_SMALL], .keyTooSmall)
        add([X509_V_ERR_EC_KEY_EXPLICIT_PARAMS], .explicitECParameters)
        add([X509_V_ERR_CA_MD_TOO_WEAK], .digestTooWeak)
        add([X509_V_ERR_OUT_OF_MEM, X509_V_ERR_UNSPECIFIED, X509_V_ERR_INVALID_CALL, X509_V_ERR_STORE_LOOKUP],
            .libraryFailure)
        add(neverEnabled, .notRequested)
        return table
    }()

    /// Codes for features certkit never turns on (purposes, trust settings, hosts, e-mail, IP, DANE, Suite B,
    /// OCSP, SCTs, proxy certificates, policy trees, X509_STRICT profile codes, issuer-check diagnostics, loops).
    static let neverEnabled: [Int32] = [
        X509_V_ERR_INVALID_PURPOSE, X509_V_ERR_CERT_UNTRUSTED, X509_V_ERR_CERT_REJECTED,
        X509_V_ERR_SUBJECT_ISSUER_MISMATCH, X509_V_ERR_AKID_SKID_MISMATCH, X509_V_ERR_AKID_ISSUER_SERIAL_MISMATCH,
        X509_V_ERR_KEYUSAGE_NO_DIGITAL_SIGNATURE, X509_V_ERR_PROXY_CERTIFICATES_NOT_ALLOWED,
        X509_V_ERR_INVALID_POLICY_EXTENSION, X509_V_ERR_NO_EXPLICIT_POLICY, X509_V_ERR_UNSUPPORTED_EXTENSION_FEATURE,
        X509_V_ERR_UNNESTED_RESOURCE, X509_V_ERR_APPLICATION_VERIFICATION, X509_V_ERR_PATH_LOOP,
        X509_V_ERR_SUITE_B_INVALID_VERSION, X509_V_ERR_SUITE_B_INVALID_ALGORITHM, X509_V_ERR_SUITE_B_INVALID_CURVE,
        X509_V_ERR_SUITE_B_INVALID_SIGNATURE_ALGORITHM, X509_V_ERR_SUITE_B_LOS_NOT_ALLOWED,
        X509_V_ERR_SUITE_B_CANNOT_SIGN_P_384_WITH_P_256, X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_EMAIL_MISMATCH,
        X509_V_ERR_IP_ADDRESS_MISMATCH, X509_V_ERR_DANE_NO_MATCH, X509_V_ERR_NO_VALID_SCTS,
        X509_V_ERR_PROXY_SUBJECT_NAME_VIOLATION, X509_V_ERR_OCSP_VERIFY_NEEDED, X509_V_ERR_OCSP_VERIFY_FAILED,
        X509_V_ERR_OCSP_CERT_UNKNOWN, X509_V_ERR_SIGNATURE_ALGORITHM_MISMATCH, X509_V_ERR_PATHLEN_INVALID_FOR_NON_CA,
        X509_V_ERR_PATHLEN_WITHOUT_KU_KEY_CERT_SIGN, X509_V_ERR_KU_KEY_CERT_SIGN_INVALID_FOR_NON_CA,
        X509_V_ERR_ISSUER_NAME_EMPTY, X509_V_ERR_SUBJECT_NAME_EMPTY, X509_V_ERR_MISSING_AUTHORITY_KEY_IDENTIFIER,
        X509_V_ERR_MISSING_SUBJECT_KEY_IDENTIFIER, X509_V_ERR_EMPTY_SUBJECT_ALT_NAME,
        X509_V_ERR_EMPTY_SUBJECT_SAN_NOT_CRITICAL, X509_V_ERR_CA_BCONS_NOT_CRITICAL,
        X509_V_ERR_AUTHORITY_KEY_IDENTIFIER_CRITICAL, X509_V_ERR_SUBJECT_KEY_IDENTIFIER_CRITICAL,
        X509_V_ERR_CA_CERT_MISSING_KEY_USAGE, X509_V_ERR_EXTENSIONS_REQUIRE_VERSION_3,
    ]

    /// The status of `code`; a code OpenSSL 3.0 does not define is ``LibraryFact/Status/unknown``.
    static func status(of code: Int32) -> LibraryFact.Status { table[code] ?? .unknown }

    /// OpenSSL's words for `code` (`X509_verify_cert_error_string`).
    static func reason(for code: Int32) -> String {
        guard let text = X509_verify_cert_error_string(Int(code)) else { return "X509_V_ERR \(code)" }
        return "\(String(cString: text)) (X509_V_ERR \(code))"
    }

    /// The facts `failures` amount to (`X509_V_OK` is none), each at the depth OpenSSL reported.
    static func facts(_ failures: [VerificationFailure]) -> [LibraryFact] {
        failures.compactMap { failure in
            guard failure.code != X509_V_OK else { return nil }
            return LibraryFact(status(of: failure.code), index: failure.depth, words: reason(for: failure.code))
        }
    }
}
