import CertKit
internal import COpenSSL

/// How certkit reads OpenSSL's `X509_V_ERR_*` codes: each becomes a ``TrustCheck`` on the certificate at the
/// reported depth (depth == candidate path index), plus a note with OpenSSL's own words.
///
/// Decisions (DESIGN §2–§3):
/// - Validity (`CERT_HAS_EXPIRED`, `CERT_NOT_YET_VALID`, malformed time fields), for the anchor too → `temporalValidity`.
/// - Signatures (`CERT_SIGNATURE_FAILURE`, `UNABLE_TO_DECRYPT_CERT_SIGNATURE`, `UNSUPPORTED_SIGNATURE_ALGORITHM`,
///   `SIGNATURE_ALGORITHM_INCONSISTENCY`) → `signature` on the reported certificate. `UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY`
///   and `NO_ISSUER_PUBLIC_KEY` are reported on the issuer; the certificate whose signature cannot be checked is
///   the one below it. A certificate signed with MD2/MD4/MD5 gets no `signature` finding (only a note): OpenSSL 3
///   may have those digests disabled, and the core reports `weakSignature` (fatal) itself.
/// - `INVALID_CA` / `INVALID_NON_CA` are decided with the parsed certificate: v1 or no basicConstraints →
///   `basicConstraints`; `cA` false → `basicConstraintsCA`; `cA` true but keyUsage without keyCertSign (OpenSSL's
///   `X509_check_ca` refuses it) → `keyUsage`.
/// - `PATH_LENGTH_EXCEEDED` → `basicConstraintsPathLen` on the CA whose pathLenConstraint is exceeded (OpenSSL
///   reports that CA; the depth is checked against the parsed path and corrected if needed).
/// - `INVALID_EXTENSION` → `duplicateExtension` when the parsed certificate repeats an extension, else
///   `malformedExtension`.
/// - `KEYUSAGE_NO_CERTSIGN` (reported on the issuing CA) → `keyUsage`; `UNHANDLED_CRITICAL_EXTENSION` →
///   `criticalExtensions`; name-constraint errors → `nameConstraints` on the certificate whose name is violated;
///   `CERT_REVOKED` → `revocation`; `CERT_CHAIN_TOO_LONG` → `chainLength`.
/// - Chain ends (`UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)`, `DEPTH_ZERO_SELF_SIGNED_CERT`, `SELF_SIGNED_CERT_IN_CHAIN`,
///   `UNABLE_TO_VERIFY_LEAF_SIGNATURE`): on the last certificate of the path, `anchorTrusted` when it is
///   self-issued, `missingIntermediate` otherwise; on an earlier certificate (OpenSSL did not accept the next
///   certificate of the path as its issuer) `missingIntermediate` there.
/// - CRL problems (`UNABLE_TO_GET_CRL` is ignored: the core only checks revocation against the CRLs it is given;
///   `CRL_SIGNATURE_FAILURE`, `CRL_HAS_EXPIRED`, ...) → a note only, never a failed check. A `CERT_REVOKED` at a
///   depth whose CRL failed its signature check is dropped too (with a note): it comes from an unverified CRL.
/// - `EE_KEY_TOO_SMALL` / `CA_KEY_TOO_SMALL` / `CA_MD_TOO_WEAK` cannot happen at auth level 0; if they do →
///   `keySize` / `signatureHashAlgorithms`, with a note.
/// - Library failures (`OUT_OF_MEM`, `UNSPECIFIED`, `INVALID_CALL`, `STORE_LOOKUP`) → `backendError`.
/// - Anything else (codes for features certkit never enables: purposes, hosts, DANE, Suite B, OCSP, SCTs, and
///   codes added after OpenSSL 3.0) is never passed through silently: a note plus the closest check, and
///   `anchorTrusted` (errSecNotTrusted, "OpenSSL did not establish trust") when nothing is closer.
enum X509VerifyErrorMapping {
    /// What one error code means, before it is placed on a certificate.
    enum Meaning: Equatable {
        /// A failed check on the certificate at the reported depth.
        case check(TrustCheck)
        /// A signature failure of the certificate at the reported depth.
        case signatureOfReported
        /// A signature failure of the certificate issued by the one at the reported depth.
        case signatureOfIssued
        /// A CA that OpenSSL refuses as a CA; the parsed certificate decides which check.
        case caConstraint
        /// The pathLenConstraint of a CA is exceeded.
        case pathLength
        /// The chain could not be finished or ends in an untrusted self-signed certificate.
        case chainEnd
        /// An extension OpenSSL cannot decode; the parsed certificate says whether it is a duplicate.
        case invalidExtension
        /// A CRL problem: a note only.
        case crlNote
        /// Irrelevant to certkit: dropped without a note.
        case ignored
        /// A policy OpenSSL should not apply at level 0: mapped, and noted as unexpected.
        case unexpectedPolicy(TrustCheck)
        /// A code certkit has no exact reading for: the closest check, and a note.
        case unmapped(TrustCheck)
    }

    /// CRL signature failures: a revocation from such a CRL is not trusted.
    static let crlSignatureFailures: Set<Int32> = [
        X509_V_ERR_CRL_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CRL_SIGNATURE,
    ]

    /// The meaning of `code`.
    static func meaning(of code: Int32) -> Meaning {
        switch code {
        case X509_V_OK, X509_V_ERR_UNABLE_TO_GET_CRL:
            .ignored
        case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD,
             X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD:
            .check(.temporalValidity)
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE,
             X509_V_ERR_UNSUPPORTED_SIGNATURE_ALGORITHM, X509_V_ERR_SIGNATURE_ALGORITHM_INCONSISTENCY:
            .signatureOfReported
        case X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY, X509_V_ERR_NO_ISSUER_PUBLIC_KEY:
            .signatureOfIssued
        case X509_V_ERR_INVALID_CA, X509_V_ERR_INVALID_NON_CA:
            .caConstraint
        case X509_V_ERR_PATH_LENGTH_EXCEEDED, X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED:
            .pathLength
        case X509_V_ERR_KEYUSAGE_NO_CERTSIGN:
            .check(.keyUsage)
        case X509_V_ERR_INVALID_EXTENSION:
            .invalidExtension
        case X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION:
            .check(.criticalExtensions)
        case X509_V_ERR_PERMITTED_VIOLATION, X509_V_ERR_EXCLUDED_VIOLATION, X509_V_ERR_SUBTREE_MINMAX,
             X509_V_ERR_UNSUPPORTED_CONSTRAINT_TYPE, X509_V_ERR_UNSUPPORTED_CONSTRAINT_SYNTAX,
             X509_V_ERR_UNSUPPORTED_NAME_SYNTAX, X509_V_ERR_PROXY_SUBJECT_NAME_VIOLATION:
            .check(.nameConstraints)
        case X509_V_ERR_CERT_REVOKED:
            .check(.revocation)
        case X509_V_ERR_CERT_CHAIN_TOO_LONG:
            .check(.chainLength)
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
             X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
             X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            .chainEnd
        case X509_V_ERR_UNABLE_TO_DECRYPT_CRL_SIGNATURE, X509_V_ERR_CRL_SIGNATURE_FAILURE, X509_V_ERR_CRL_NOT_YET_VALID,
             X509_V_ERR_CRL_HAS_EXPIRED, X509_V_ERR_ERROR_IN_CRL_LAST_UPDATE_FIELD,
             X509_V_ERR_ERROR_IN_CRL_NEXT_UPDATE_FIELD, X509_V_ERR_UNABLE_TO_GET_CRL_ISSUER,
             X509_V_ERR_KEYUSAGE_NO_CRL_SIGN, X509_V_ERR_UNHANDLED_CRITICAL_CRL_EXTENSION,
             X509_V_ERR_DIFFERENT_CRL_SCOPE, X509_V_ERR_CRL_PATH_VALIDATION_ERROR:
            .crlNote
        case X509_V_ERR_EE_KEY_TOO_SMALL, X509_V_ERR_CA_KEY_TOO_SMALL:
            .unexpectedPolicy(.keySize)
        case X509_V_ERR_CA_MD_TOO_WEAK:
            .unexpectedPolicy(.signatureHashAlgorithms)
        case X509_V_ERR_OUT_OF_MEM, X509_V_ERR_UNSPECIFIED, X509_V_ERR_INVALID_CALL, X509_V_ERR_STORE_LOOKUP:
            .check(.backendError)
        default:
            .unmapped(closestCheck(to: code))
        }
    }

    /// The closest check for codes certkit never provokes on purpose.
    private static func closestCheck(to code: Int32) -> TrustCheck {
        switch code {
        case X509_V_ERR_INVALID_PURPOSE: .extendedKeyUsage
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH: .sslHostname
        case X509_V_ERR_EMAIL_MISMATCH: .email
        case X509_V_ERR_KEYUSAGE_NO_DIGITAL_SIGNATURE, X509_V_ERR_PATHLEN_WITHOUT_KU_KEY_CERT_SIGN,
             X509_V_ERR_KU_KEY_CERT_SIGN_INVALID_FOR_NON_CA, X509_V_ERR_CA_CERT_MISSING_KEY_USAGE:
            .keyUsage
        case X509_V_ERR_PATHLEN_INVALID_FOR_NON_CA, X509_V_ERR_CA_BCONS_NOT_CRITICAL: .basicConstraints
        case X509_V_ERR_INVALID_POLICY_EXTENSION,
             X509_V_ERR_MISSING_AUTHORITY_KEY_IDENTIFIER, X509_V_ERR_MISSING_SUBJECT_KEY_IDENTIFIER,
             X509_V_ERR_EMPTY_SUBJECT_ALT_NAME, X509_V_ERR_EMPTY_SUBJECT_SAN_NOT_CRITICAL,
             X509_V_ERR_AUTHORITY_KEY_IDENTIFIER_CRITICAL, X509_V_ERR_SUBJECT_KEY_IDENTIFIER_CRITICAL,
             X509_V_ERR_EXTENSIONS_REQUIRE_VERSION_3:
            .malformedExtension
        case X509_V_ERR_NO_EXPLICIT_POLICY, X509_V_ERR_UNSUPPORTED_EXTENSION_FEATURE,
             X509_V_ERR_PROXY_CERTIFICATES_NOT_ALLOWED:
            .criticalExtensions
        case X509_V_ERR_UNNESTED_RESOURCE: .nameConstraints
        case X509_V_ERR_SUBJECT_ISSUER_MISMATCH, X509_V_ERR_AKID_SKID_MISMATCH,
             X509_V_ERR_AKID_ISSUER_SERIAL_MISMATCH, X509_V_ERR_PATH_LOOP:
            .missingIntermediate
        case X509_V_ERR_SIGNATURE_ALGORITHM_MISMATCH: .signature
        case X509_V_ERR_EC_KEY_EXPLICIT_PARAMS: .keySize
        default: .anchorTrusted
        }
    }

    /// OpenSSL's words for `code` (`X509_verify_cert_error_string`).
    static func reason(for code: Int32) -> String {
        guard let text = X509_verify_cert_error_string(Int(code)) else { return "X509_V_ERR \(code)" }
        return "\(String(cString: text)) (X509_V_ERR \(code))"
    }

    /// Records `failures` on `findings`, one check per failure on the certificate of `path` it concerns.
    static func record(_ failures: [VerificationFailure], for path: CandidatePath, into findings: inout PathFindings) {
        let certificates = path.certificates
        guard !certificates.isEmpty else { return }
        let last = certificates.count - 1
        // OpenSSL checks each certificate against one CRL; when that CRL's signature fails, a revocation it
        // reports for the same certificate rests on an unverified CRL and is not a finding.
        let unverifiedCRLDepths = Set(failures.filter { crlSignatureFailures.contains($0.code) }.map(\.depth))
        for failure in failures {
            let reason = reason(for: failure.code)
            let depth = min(max(failure.depth, 0), last)
            switch meaning(of: failure.code) {
            case .ignored:
                continue
            case .check(.revocation) where unverifiedCRLDepths.contains(failure.depth):
                findings.notes.append("[\(depth)] revocation ignored, the CRL's signature does not verify: \(reason)")
            case .check(let check):
                findings.record(check, at: depth, note: reason)
            case .signatureOfReported:
                recordSignature(at: depth, of: certificates, reason: reason, into: &findings)
            case .signatureOfIssued:
                recordSignature(at: max(depth - 1, 0), of: certificates, reason: reason, into: &findings)
            case .caConstraint:
                findings.record(caCheck(for: certificates[depth]), at: depth, note: reason)
            case .pathLength:
                findings.record(.basicConstraintsPathLen, at: pathLengthCA(in: certificates, reported: depth),
                                note: reason)
            case .chainEnd:
                let check: TrustCheck =
                    depth == last && certificates[last].isSelfIssued ? .anchorTrusted : .missingIntermediate
                findings.record(check, at: depth, note: reason)
            case .invalidExtension:
                let check: TrustCheck =
                    certificates[depth].extensions.duplicates.isEmpty ? .malformedExtension : .duplicateExtension
                findings.record(check, at: depth, note: reason)
            case .crlNote:
                findings.notes.append("[\(depth)] CRL (not a trust failure): \(reason)")
            case .unexpectedPolicy(let check):
                findings.record(check, at: depth, note: "\(reason) — unexpected at OpenSSL security level 0")
            case .unmapped(let check):
                findings.record(check, at: depth, note: "\(reason) — no exact certkit check, reported as closest")
            }
        }
    }

    /// Records `signature` on `index`, unless that certificate is signed with a broken digest (the core reports
    /// `weakSignature` for it; OpenSSL 3 may simply have the digest disabled).
    private static func recordSignature(
        at index: Int, of certificates: [Certificate], reason: String, into findings: inout PathFindings
    ) {
        let algorithm = certificates[index].signatureAlgorithm
        if let hash = algorithm.hash, hash.isBroken {
            findings.notes.append("[\(index)] signature over \(algorithm.name) not judged by OpenSSL: \(reason)")
            return
        }
        findings.record(.signature, at: index, note: reason)
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
            // Non-self-issued intermediates below this CA (the leaf does not count).
            let below = certificates[1..<index].filter { !$0.isSelfIssued }.count
            return below > limit
        }
        if isExceeded(reported) { return reported }
        return certificates.indices.first(where: isExceeded) ?? reported
    }
}
