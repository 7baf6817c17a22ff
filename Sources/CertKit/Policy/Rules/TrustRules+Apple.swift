/// Apple's rules (trustd) that go beyond RFC 5280, under Apple's own check names. Those trustd applies as part of
/// RFC 5280 processing (NonEmptySubject, IdLinkage) are listed with the RFC 5280 rules.
extension TrustRules {
    static let appleOnly: Set<TrustProfile> = [.apple]

    /// serverAuth required for new TLS server leaves.
    package static let serverAuthRequired = TrustRule(
        "apple.server-eku", .extendedKeyUsage, appleOnly, "Apple: requirements for trusted certificates (2019)",
        "an SSL server leaf issued on or after 2019-07-01 and chaining to an app-supplied anchor lists serverAuth in extendedKeyUsage (anyExtendedKeyUsage does not suffice)")
    /// 825 days under an anchor the app supplied (the id predates the hour's slip).
    package static let validityPeriod = TrustRule(
        "apple.validity-825-days", .validityPeriodMaximums, appleOnly,
        "trustd check_validity_period_maximums (Security-61901); Apple support 102028",
        "an SSL server leaf issued after 2019-06-30T23:00:00Z and chaining to an anchor the app supplied is valid for at most 825 days and 3600 s (notAfter − notBefore)")
    /// The system roots' schedule.
    package static let validityPeriodSystemRoots = TrustRule(
        "apple.validity-system-roots", .validityPeriodMaximums, appleOnly,
        "trustd check_validity_period_maximums (Security-61901); Apple support 102028",
        "an SSL server leaf chaining to a system root is valid for at most 825 days and 3600 s when issued on or after 2018-03-01, 398 days when issued on or after 2020-09-01 (notAfter − notBefore)")
    /// Known extensions must parse.
    package static let unparseableExtension = TrustRule(
        "apple.unparseable-extension", .unparseableExtension, everyProfile,
        "trustd UnparseableExtension; RFC 5280 §4.2.1.5, §4.2.1.11, §4.2.1.14",
        "policyConstraints, policyMappings and inhibitAnyPolicy, when present, decode")
    /// RFC 5280 §6.1 certificate-policy processing (trustd's policy tree; the id predates the full processing).
    package static let explicitPolicy = TrustRule(
        "apple.policy-constraints", .policyConstraints, everyProfile,
        "trustd PolicyConstraints; RFC 5280 §6.1.2–§6.1.5; RFC 9618",
        "when a CA's policyConstraints requires an explicit policy, some certificate policy stays valid for the path from the certificate where the requirement takes effect down to the leaf (RFC 5280 §6.1 with user-initial-policy-set anyPolicy: policy mappings, inhibitPolicyMapping and inhibitAnyPolicy applied, self-issued certificates not counted)")

    /// Keys Security.framework can use.
    package static let appleKeyAlgorithm = TrustRule(
        "apple.key-algorithm", .weakKeySize, appleOnly, "trustd WeakKeySize (SecCertificateIsWeakKey); SecKey key types",
        "every key of the path is RSA (rsaEncryption) or ECDSA on a NIST prime curve (P-192, P-224, P-256, P-384, P-521): trustd counts a key it cannot create (Ed25519, Ed448, DSA, secp256k1, other curves, RSASSA-PSS-only keys) as weak (fatal)")

    /// Apple's rules.
    static let appleRules: [TrustRule] = [
        serverAuthRequired, validityPeriod, validityPeriodSystemRoots, unparseableExtension, explicitPolicy,
        appleKeyAlgorithm,
    ]
}
