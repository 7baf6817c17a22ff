/// The Apple `OSStatus` codes certkit reports, with their names as in `SecBase.h`.
public enum TrustErrorCode: Int32, Sendable, Hashable, CaseIterable {
    case errSecCertificateExpired = -67818
    case errSecHostNameMismatch = -67602
    case errSecNotTrusted = -67843
    case errSecCreateChainFailed = -25318
    case errSecNoBasicConstraints = -67604
    case errSecNoBasicConstraintsCA = -67605
    case errSecPathLengthConstraintExceeded = -67611
    case errSecInvalidKeyUsageForPolicy = -67608
    case errSecInvalidExtendedKeyUsage = -67609
    case errSecInvalidName = -67689
    case errSecUnknownCriticalExtensionFlag = -67603
    case errSecCertificateDuplicateExtension = -67903
    case errSecUnknownCertExtension = -67618
    case errSecInvalidDigestAlgorithm = -67815
    case errSecUnsupportedKeySize = -67735
    case errSecCertificateRevoked = -67820
    case errSecIncompleteCertRevocationCheck = -67635
    case errSecTrustSettingDeny = -67654
    case errSSLATSCertificateTrustViolation = -9886
    case errSecCertificateValidityPeriodTooLong = -67901
    case errSecInvalidSignature = -67688
    case errSecInternalError = -67671
    case errSecDecode = -26275
    case errSecInvalidAuthorityKeyID = -67606
    case errSecInvalidSubjectKeyID = -67607
    case errSecInvalidIDLinkage = -67610
    case errSecInvalidSubjectName = -67655
    case errSecCertificatePolicyNotAllowed = -67899
    case errSecCertificateNameNotAllowed = -67900
    case errSecCertificateIsCA = -67902
    case errSecQuotaExceeded = -67596
    case errSecVerifyActionFailed = -67825

    /// The constant's name, e.g. `errSecCertificateExpired`.
    public var name: String { String(describing: self) }

    /// Looks a code up by its constant name.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}
