/// How bad a failed check is, before aggregation.
public enum TrustCheckSeverity: Int, Sendable, Hashable, Comparable {
    /// The user can override it (exceptions, trust settings): `recoverableTrustFailure`.
    case recoverable = 1
    /// A distrust setting: `deny`.
    case deny = 2
    /// Never overridable: `fatalTrustFailure`.
    case fatal = 3

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One failed check on one certificate, named as Apple names it in `TrustResultDetails` (Docs/TrustModel.md).
public enum TrustCheck: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case temporalValidity = "TemporalValidity"
    case sslHostname = "SSLHostname"
    case email = "Email"
    case anchorTrusted = "AnchorTrusted"
    case missingIntermediate = "MissingIntermediate"
    case basicConstraints = "BasicConstraints"
    case basicConstraintsCA = "BasicConstraintsCA"
    case basicConstraintsPathLen = "BasicConstraintsPathLen"
    case keyUsage = "KeyUsage"
    case extendedKeyUsage = "ExtendedKeyUsage"
    case nameConstraints = "NameConstraints"
    case criticalExtensions = "CriticalExtensions"
    case duplicateExtension = "DuplicateExtension"
    case malformedExtension = "MalformedExtension"
    case signatureHashAlgorithms = "SignatureHashAlgorithms"
    case keySize = "KeySize"
    case weakSignature = "WeakSignature"
    case weakKeySize = "WeakKeySize"
    case revocation = "Revocation"
    /// CRLs were given for a certificate's issuer and none of them could be validated (bad signature, wrong
    /// issuer, issuer without cRLSign, outside thisUpdate…nextUpdate, unsupported critical extension).
    case revocationResponseRequired = "RevocationResponseRequired"
    case usageConstraints = "UsageConstraints"
    case leafSPKISHA256 = "LeafSPKISHA256"
    case validityPeriodMaximums = "ValidityPeriodMaximums"
    case chainLength = "ChainLength"
    /// The certificate's signature does not verify with its issuer's key: the candidate path is discarded.
    case signature = "Signature"
    /// The path building work limit was reached.
    case pathBuildingLimit = "PathBuildingLimit"
    /// A bound of ``Limits`` on the evaluation was exceeded (pool, anchors, CRLs, CRL entries, name-constraint
    /// comparisons, policy-graph nodes): the work was not done, so the result is a fatal failure no exception can cover.
    case resourceLimit = "ResourceLimit"
    /// The backend failed (allocation, internal error): `otherError`.
    case backendError = "BackendError"
    /// The serial number is not positive or longer than 20 octets.
    case serialNumber = "SerialNumber"
    /// authorityKeyIdentifier missing, critical, or (for a root) not in the keyIdentifier-only form.
    case authorityKeyID = "AuthorityKeyID"
    /// subjectKeyIdentifier missing in a CA certificate, or critical.
    case subjectKeyID = "SubjectKeyID"
    /// A certificate's authorityKeyIdentifier does not match its issuer's subjectKeyIdentifier (trustd's name).
    case idLinkage = "IdLinkage"
    /// A CA certificate with an empty subject, or an empty subject without a critical subjectAltName (trustd's name).
    case nonEmptySubject = "NonEmptySubject"
    /// Certificate-policy processing failed (RFC 5280 §6.1): an explicit policy required and none valid, a policy
    /// mapped to or from anyPolicy; or policyConstraints not critical (trustd's name).
    case policyConstraints = "PolicyConstraints"
    /// An extension certkit decodes only for policy processing (policyConstraints, policyMappings,
    /// inhibitAnyPolicy) does not decode (trustd's name).
    case unparseableExtension = "UnparseableExtension"
    /// An extension marked critical that must not be, or not marked critical that must be.
    case extensionCriticality = "ExtensionCriticality"
    /// A certificate asserting cA used as the leaf (trustd's name).
    case notCA = "NotCA"
    /// The leaf's subject commonName is not one of its subjectAltNames in canonical form.
    case subjectCommonName = "SubjectCommonName"
    /// certkit's audit mode only (``TrustEvaluator/Configuration/libraryAudit``): the backend's library refused
    /// the path the core chose for a reason no core rule explains and no known library deviation accounts for
    /// (its own words are in ``TrustReport/libraryVerdict``). Not an Apple check: recoverable, as a policy
    /// disagreement, but no exception may cover it.
    case libraryVerdict = "LibraryVerdict"
    /// The TLS server leaf chains to a system root and its Signed Certificate Timestamps do not meet the profile's
    /// Certificate Transparency policy (trustd's name; enforced only with a log list).
    case systemTrustedCTRequired = "SystemTrustedCTRequired"

    /// Apple's name for the check.
    public var name: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The case's position in ``allCases``: a case without payload is stored as its index (`TrustCheckOrdinalTests`
    /// holds this to the declaration order).
    var ordinal: UInt8 { unsafeBitCast(self, to: UInt8.self) }

    /// Hashes the case, not its name: the default for a `String`-backed enum hashes the raw value, a string hash on
    /// every set and dictionary operation of every evaluation.
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// The severity before aggregation.
    public var severity: TrustCheckSeverity {
        switch self {
        case .weakSignature, .weakKeySize, .revocation, .resourceLimit: .fatal
        case .usageConstraints: .deny
        default: .recoverable
        }
    }

    /// False for the checks no exception may ever cover, whatever its file says: a signature that does not
    /// verify, revocation (known or unknown), and a path-building limit reached.
    public var isExceptionAllowed: Bool {
        switch self {
        case .signature, .revocation, .revocationResponseRequired, .pathBuildingLimit, .backendError, .libraryVerdict: false
        default: severity == .recoverable
        }
    }

    /// The error code reported when this check is the chosen error.
    public var errorCode: TrustErrorCode {
        switch self {
        case .temporalValidity: .errSecCertificateExpired
        case .sslHostname, .email: .errSecHostNameMismatch
        case .anchorTrusted: .errSecNotTrusted
        case .signature: .errSecInvalidSignature
        case .missingIntermediate, .pathBuildingLimit: .errSecCreateChainFailed
        case .basicConstraints: .errSecNoBasicConstraints
        case .basicConstraintsCA: .errSecNoBasicConstraintsCA
        case .basicConstraintsPathLen, .chainLength: .errSecPathLengthConstraintExceeded
        case .keyUsage: .errSecInvalidKeyUsageForPolicy
        case .extendedKeyUsage: .errSecInvalidExtendedKeyUsage
        case .nameConstraints: .errSecInvalidName
        case .criticalExtensions: .errSecUnknownCriticalExtensionFlag
        case .duplicateExtension: .errSecCertificateDuplicateExtension
        case .malformedExtension: .errSecUnknownCertExtension
        case .signatureHashAlgorithms, .weakSignature: .errSecInvalidDigestAlgorithm
        case .keySize, .weakKeySize: .errSecUnsupportedKeySize
        case .revocation: .errSecCertificateRevoked
        case .revocationResponseRequired: .errSecIncompleteCertRevocationCheck
        case .usageConstraints: .errSecTrustSettingDeny
        case .leafSPKISHA256: .errSSLATSCertificateTrustViolation
        case .validityPeriodMaximums: .errSecCertificateValidityPeriodTooLong
        case .backendError: .errSecInternalError
        case .serialNumber: .errSecDecode
        case .authorityKeyID: .errSecInvalidAuthorityKeyID
        case .subjectKeyID: .errSecInvalidSubjectKeyID
        case .idLinkage: .errSecInvalidIDLinkage
        case .nonEmptySubject: .errSecInvalidSubjectName
        case .policyConstraints: .errSecCertificatePolicyNotAllowed
        case .unparseableExtension: .errSecUnknownCertExtension
        case .extensionCriticality: .errSecUnknownCriticalExtensionFlag
        case .notCA: .errSecCertificateIsCA
        case .subjectCommonName: .errSecCertificateNameNotAllowed
        case .resourceLimit: .errSecQuotaExceeded
        case .libraryVerdict, .systemTrustedCTRequired: .errSecVerifyActionFailed
        }
    }

    /// trustd's error priority (higher wins): Revoked > KeySize > WeakHash > Denied > Pinning > Trust > Usage >
    /// Name > Expired. Backend errors outrank everything.
    public var priority: Int {
        switch self {
        case .backendError: 100
        case .resourceLimit: 95
        case .revocation: 90
        case .revocationResponseRequired: 85
        case .weakKeySize, .keySize: 80
        case .weakSignature, .signatureHashAlgorithms: 70
        case .usageConstraints: 60
        case .leafSPKISHA256: 50
        case .pathBuildingLimit: 41
        case .anchorTrusted, .missingIntermediate, .signature, .libraryVerdict: 40
        case .keyUsage, .extendedKeyUsage, .basicConstraints, .basicConstraintsCA, .basicConstraintsPathLen,
             .criticalExtensions, .duplicateExtension, .malformedExtension, .chainLength, .serialNumber,
             .authorityKeyID, .subjectKeyID, .idLinkage, .nonEmptySubject, .policyConstraints, .unparseableExtension,
             .extensionCriticality, .notCA, .systemTrustedCTRequired:
            30
        case .sslHostname, .email, .nameConstraints, .subjectCommonName: 20
        case .temporalValidity, .validityPeriodMaximums: 10
        }
    }
}
