import CertKit
internal import COpenSSL

/// How certkit reads OpenSSL's own verdict (`X509_V_ERR_*` from the verify callback) as a second opinion
/// (DESIGN §2). Every code of OpenSSL 3.0 (0…94) has an explicit entry; a code that is not in the table (added
/// after 3.0) fails closed as `Signature`.
///
/// Each entry says which core checks explain the code and what to record when none does. Decisions:
/// - Validity, signatures, CA constraints, path length, keyCertSign, extensions, name constraints, revocation,
///   chain length and chain ends are rules the core owns: the matching core check explains them; when the core
///   found nothing, OpenSSL's failure is recorded as that check (it can only add).
/// - CRL problems: the core passes only CRLs it validated, so a CRL OpenSSL still refuses is recorded as
///   `RevocationResponseRequired`. `UNABLE_TO_GET_CRL` (no CRL for a certificate) is not a failure: certkit checks
///   revocation only against the CRLs it is given.
/// - Key and digest strength codes cannot happen at auth level 0; if they do, the matching floor check.
///   `EC_KEY_EXPLICIT_PARAMS` (OpenSSL 3 reports it even without X509_STRICT) is the core's
///   certkit.ec-named-curve rule: `KeySize`.
/// - Library failures (`OUT_OF_MEM`, `UNSPECIFIED`, `INVALID_CALL`, `STORE_LOOKUP`) → `BackendError`.
/// - Everything certkit never enables (purposes, trust settings, hosts, e-mail, IP, DANE, Suite B, OCSP, SCTs,
///   proxy certificates, policy trees, X509_STRICT profile codes, issuer-check diagnostics, path loops): no core
///   check explains it, so it is recorded as `Signature` — a refusal nobody understands is never a pass.
enum X509VerifyErrorMapping {
    /// Which certificate an error is about.
    enum Placement: Equatable {
        /// The certificate at the reported depth.
        case reported
        /// The certificate issued by the one at the reported depth (depth − 1).
        case issued
        /// Somewhere on the path: explained by the check on any certificate.
        case anywhere
    }

    /// What to record when no core check explains the code.
    enum Otherwise: Equatable {
        case check(TrustCheck)
        /// The parsed certificate decides: no basicConstraints / v1 → BasicConstraints, cA false →
        /// BasicConstraintsCA, no keyCertSign → KeyUsage.
        case caConstraint
        /// BasicConstraintsPathLen on the CA whose constraint is exceeded.
        case pathLength
        /// AnchorTrusted on a self-issued last certificate, else MissingIntermediate.
        case chainEnd
        /// DuplicateExtension when the parsed certificate repeats an extension, else MalformedExtension.
        case invalidExtension
    }

    /// One code's reading.
    struct Entry: Equatable {
        var placement: Placement
        var explainedBy: Set<TrustCheck>
        var otherwise: Otherwise
    }

    /// Codes that are not failures for certkit.
    static let ignored: Set<Int32> = [X509_V_OK, X509_V_ERR_UNABLE_TO_GET_CRL]

    /// Every other code of OpenSSL 3.0.
    static let table: [Int32: Entry] = {
        var table: [Int32: Entry] = [:]
        func add(_ codes: [Int32], _ placement: Placement, _ explainedBy: Set<TrustCheck>, _ otherwise: Otherwise) {
            for code in codes { table[code] = Entry(placement: placement, explainedBy: explainedBy, otherwise: otherwise) }
        }
        add([X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD,
             X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD], .reported, [.temporalValidity], .check(.temporalValidity))
        add([X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE,
             X509_V_ERR_UNSUPPORTED_SIGNATURE_ALGORITHM, X509_V_ERR_SIGNATURE_ALGORITHM_INCONSISTENCY],
            .reported, [.signature, .weakSignature], .check(.signature))
        add([X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY, X509_V_ERR_NO_ISSUER_PUBLIC_KEY],
            .issued, [.signature, .weakSignature], .check(.signature))
        add([X509_V_ERR_INVALID_CA, X509_V_ERR_INVALID_NON_CA], .reported,
            [.basicConstraints, .basicConstraintsCA, .keyUsage], .caConstraint)
        add([X509_V_ERR_PATH_LENGTH_EXCEEDED, X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED], .anywhere,
            [.basicConstraintsPathLen], .pathLength)
        add([X509_V_ERR_KEYUSAGE_NO_CERTSIGN], .reported, [.keyUsage], .check(.keyUsage))
        add([X509_V_ERR_INVALID_EXTENSION], .reported, [.duplicateExtension, .malformedExtension], .invalidExtension)
        add([X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION], .reported, [.criticalExtensions], .check(.criticalExtensions))
        add([X509_V_ERR_PERMITTED_VIOLATION, X509_V_ERR_EXCLUDED_VIOLATION, X509_V_ERR_SUBTREE_MINMAX,
             X509_V_ERR_UNSUPPORTED_CONSTRAINT_TYPE, X509_V_ERR_UNSUPPORTED_CONSTRAINT_SYNTAX,
             X509_V_ERR_UNSUPPORTED_NAME_SYNTAX], .anywhere, [.nameConstraints], .check(.nameConstraints))
        add([X509_V_ERR_CERT_REVOKED], .reported, [.revocation], .check(.revocation))
        add([X509_V_ERR_CERT_CHAIN_TOO_LONG], .anywhere, [.chainLength], .check(.chainLength))
        add([X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
             X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
             X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE], .anywhere,
            [.missingIntermediate, .anchorTrusted, .signature], .chainEnd)
        add([X509_V_ERR_UNABLE_TO_DECRYPT_CRL_SIGNATURE, X509_V_ERR_CRL_SIGNATURE_FAILURE, X509_V_ERR_CRL_NOT_YET_VALID,
             X509_V_ERR_CRL_HAS_EXPIRED, X509_V_ERR_ERROR_IN_CRL_LAST_UPDATE_FIELD,
             X509_V_ERR_ERROR_IN_CRL_NEXT_UPDATE_FIELD, X509_V_ERR_UNABLE_TO_GET_CRL_ISSUER,
             X509_V_ERR_KEYUSAGE_NO_CRL_SIGN, X509_V_ERR_UNHANDLED_CRITICAL_CRL_EXTENSION,
             X509_V_ERR_DIFFERENT_CRL_SCOPE, X509_V_ERR_CRL_PATH_VALIDATION_ERROR],
            .reported, [.revocationResponseRequired, .revocation], .check(.revocationResponseRequired))
        add([X509_V_ERR_EE_KEY_TOO_SMALL, X509_V_ERR_CA_KEY_TOO_SMALL], .reported, [.keySize, .weakKeySize], .check(.keySize))
        add([X509_V_ERR_EC_KEY_EXPLICIT_PARAMS], .reported, [.keySize], .check(.keySize))
        add([X509_V_ERR_CA_MD_TOO_WEAK], .reported, [.signatureHashAlgorithms, .weakSignature],
            .check(.signatureHashAlgorithms))
        add([X509_V_ERR_OUT_OF_MEM, X509_V_ERR_UNSPECIFIED, X509_V_ERR_INVALID_CALL, X509_V_ERR_STORE_LOOKUP],
            .reported, [], .check(.backendError))
        add(neverEnabled, .reported, [], .check(.signature))
        return table
    }()

    /// Codes for features certkit never turns on; seeing one means OpenSSL refused for a reason the core does
    /// not know, so it is a `Signature` failure.
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

    /// The entry for `code`; a code OpenSSL 3.0 does not define fails closed as `Signature`.
    static func entry(for code: Int32) -> Entry {
        table[code] ?? Entry(placement: .reported, explainedBy: [], otherwise: .check(.signature))
    }

    /// OpenSSL's words for `code` (`X509_verify_cert_error_string`).
    static func reason(for code: Int32) -> String {
        guard let text = X509_verify_cert_error_string(Int(code)) else { return "X509_V_ERR \(code)" }
        return "\(String(cString: text)) (X509_V_ERR \(code))"
    }

    /// The findings `failures` amount to on `path`, for the core to weigh.
    static func findings(_ failures: [VerificationFailure], for path: CandidatePath) -> [LibraryFinding] {
        let certificates = path.certificates
        guard !certificates.isEmpty else { return [] }
        let last = certificates.count - 1
        return failures.compactMap { failure in
            guard !ignored.contains(failure.code) else { return nil }
            let entry = entry(for: failure.code)
            let depth = min(max(failure.depth, 0), last)
            let index = entry.placement == .issued ? max(depth - 1, 0) : depth
            let check: TrustCheck = switch entry.otherwise {
            case .check(let check): check
            case .caConstraint: caCheck(for: certificates[index])
            case .pathLength: .basicConstraintsPathLen
            case .chainEnd: index == last && certificates[last].isSelfIssued ? .anchorTrusted : .missingIntermediate
            case .invalidExtension:
                certificates[index].extensions.duplicates.isEmpty ? .malformedExtension : .duplicateExtension
            }
            let place = entry.otherwise == .pathLength ? pathLengthCA(in: certificates, reported: index) : index
            return LibraryFinding(
                index: entry.placement == .anywhere && entry.otherwise != .pathLength && entry.otherwise != .chainEnd
                    ? nil : place,
                explainedBy: entry.explainedBy, otherwise: check, note: reason(for: failure.code))
        }
    }

    /// The check for a certificate OpenSSL refuses as a CA.
    static func caCheck(for certificate: Certificate) -> TrustCheck {
        guard certificate.version >= 3, let constraints = certificate.extensions.basicConstraints else {
            return .basicConstraints
        }
        if !constraints.isCA { return .basicConstraintsCA }
        if let usage = certificate.extensions.keyUsage, !usage.contains(.keyCertSign) { return .keyUsage }
        return .basicConstraintsCA
    }

    /// The index of the CA whose pathLenConstraint is exceeded: `reported` when that CA's constraint is exceeded
    /// there, else the first CA above the leaf whose constraint is exceeded, else `reported`.
    static func pathLengthCA(in certificates: [Certificate], reported: Int) -> Int {
        func isExceeded(_ index: Int) -> Bool {
            guard index > 0, index < certificates.count,
                  let limit = certificates[index].extensions.basicConstraints?.pathLength
            else { return false }
            let below = certificates[1..<index].filter { !$0.isSelfIssued }.count
            return below > limit
        }
        if isExceeded(reported) { return reported }
        return certificates.indices.first(where: isExceeded) ?? reported
    }
}
