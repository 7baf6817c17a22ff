/// Web PKI rules: the CA/Browser Forum Baseline Requirements and root-program rules as Chrome, Mozilla, Go,
/// rustls and pyca/cryptography apply them. Enforced by the `webpki` profile only.
extension TrustRules {
    static let webPKIOnly: Set<TrustProfile> = [.webpki]

    /// The leaf names its TLS purpose.
    package static let leafExtendedKeyUsage = TrustRule(
        "webpki.leaf-eku", .extendedKeyUsage, webPKIOnly, "CA/B BR §7.1.2.7.10; pyca/cryptography webpki policy",
        "the leaf carries extendedKeyUsage listing serverAuth (ssl-server) or clientAuth (ssl-client); anyExtendedKeyUsage alone is not enough")
    /// EKU never critical.
    package static let extendedKeyUsageNotCritical = TrustRule(
        "webpki.eku-not-critical", .extendedKeyUsage, webPKIOnly, "CA/B BR §7.1.2.7.10, §7.1.2.10.6",
        "extendedKeyUsage is not critical")
    /// Roots carry no EKU.
    package static let rootWithoutExtendedKeyUsage = TrustRule(
        "webpki.root-no-eku", .extendedKeyUsage, webPKIOnly, "CA/B BR §7.1.2.1.2",
        "a self-signed anchor (a root) carries no extendedKeyUsage")
    /// A CA is never a leaf.
    package static let leafNotCA = TrustRule(
        "webpki.leaf-not-ca", .notCA, webPKIOnly, "CA/B BR §7.1.2.7.8; pyca/cryptography, rustls",
        "a certificate asserting cA is never accepted as the leaf")
    /// RSA at least 2048 bits.
    package static let rsaModulusMinimum = TrustRule(
        "webpki.rsa-modulus-2048", .keySize, webPKIOnly, "CA/B BR §6.1.5",
        "an RSA modulus has at least 2048 bits (under every policy, not only TLS)")
    /// RSA modulus multiple of 8.
    package static let rsaModulusMultipleOf8 = TrustRule(
        "webpki.rsa-modulus-multiple-of-8", .keySize, webPKIOnly, "CA/B BR §6.1.5",
        "an RSA modulus size in bits is divisible by 8")
    /// Named curves P-256, P-384, P-521.
    package static let ecdsaNamedCurve = TrustRule(
        "webpki.ecdsa-named-curve", .keySize, webPKIOnly, "CA/B BR §6.1.5, §7.1.3.1.2",
        "an ECDSA key is on P-256, P-384 or P-521 (explicit curve parameters are rejected in every profile: certkit.ec-named-curve)")
    /// RSA and ECDSA only.
    package static let keyAlgorithm = TrustRule(
        "webpki.key-algorithm", .keySize, webPKIOnly, "CA/B BR §6.1.5, §7.1.3.1; pyca/cryptography webpki policy",
        "a public key is RSA (rsaEncryption, not id-RSASSA-PSS) or ECDSA: no DSA, and no Ed25519 or Ed448 (pyca/cryptography rejects EdDSA in its Web PKI policy; certkit follows)")
    /// The subject CN is one of the SANs.
    package static let commonNameInSAN = TrustRule(
        "webpki.cn-in-san", .subjectCommonName, webPKIOnly, "CA/B BR §7.1.4.3",
        "a subject commonName in the leaf is one of its subjectAltNames, byte for byte in canonical form: IPv4 dotted quad without leading zeros, IPv6 in RFC 5952 form, a DNS name as its A-label compared case-insensitively")
    /// Root AKI form.
    package static let rootAuthorityKeyIdentifier = TrustRule(
        "webpki.root-aki-form", .authorityKeyID, webPKIOnly, "CA/B BR §7.1.2.1.3",
        "a self-signed anchor's authorityKeyIdentifier, when present, holds only keyIdentifier, equal to its own subjectKeyIdentifier")
    /// No wildcard over a public suffix.
    package static let wildcardPublicSuffix = TrustRule(
        "webpki.wildcard-public-suffix", .sslHostname, webPKIOnly, "CA/B BR §3.2.2.6; Chrome",
        "a wildcard dNSName whose remainder is a public suffix (ICANN or private section of the Public Suffix List) matches nothing")
    /// The Public Suffix List must be present.
    package static let publicSuffixListAvailable = TrustRule(
        "webpki.public-suffix-list", .sslHostname, webPKIOnly, "certkit: Debian package publicsuffix",
        "a wildcard dNSName matches only when the Public Suffix List (/usr/share/publicsuffix/public_suffix_list.dat) can be read")
    /// SAN critical only with an empty subject.
    package static let subjectAltNameCriticality = TrustRule(
        "webpki.san-critical-only-if-empty-subject", .extensionCriticality, webPKIOnly, "CA/B BR §7.1.2.7.12",
        "subjectAltName is critical only when the subject is empty")
    /// DNS constraints on the CN.
    package static let nameConstraintsOnCommonName = TrustRule(
        "webpki.name-constraints-cn", .nameConstraints, webPKIOnly, "CA/B BR §7.1.2.10.8; Chrome, Go",
        "dNSName constraints apply to the leaf's subject commonName when the leaf has no subjectAltName at all and the commonName is a syntactically valid host name")

    /// CA keyUsage present and critical.
    package static let caKeyUsage = TrustRule(
        "webpki.ca-key-usage", .keyUsage, webPKIOnly, "CA/B BR §7.1.2.1.2, §7.1.2.10.7",
        "a CA certificate (an issuer below the anchor, or any other certificate asserting cA) carries keyUsage marked critical; the anchor is taken as given, as rustls-webpki and Chrome take it (pyca/cryptography still wants a root's keyUsage present)")
    /// A TLS subordinate CA names the purpose.
    package static let intermediateExtendedKeyUsage = TrustRule(
        "webpki.ca-eku-purpose", .extendedKeyUsage, webPKIOnly, "CA/B BR §7.1.2.10.6",
        "under the SSL policies an intermediate's extendedKeyUsage, when present, lists the policy's purpose (serverAuth or clientAuth) itself: an intermediate whose extendedKeyUsage is anyExtendedKeyUsage alone is not a TLS subordinate CA (apple and rfc5280 let anyExtendedKeyUsage allow the purpose: certkit.eku-purpose)")
    /// No DEFAULT critical flag encoded.
    package static let criticalFalseEncoded = TrustRule(
        "webpki.extension-critical-false", .malformedExtension, webPKIOnly, "X.690 §11.5; RFC 5280 §4.1; Chrome, pyca/cryptography",
        "no extension writes critical FALSE out (the DEFAULT value, which DER leaves out): such a certificate is malformed, anchor included, as Chrome and pyca/cryptography refuse to parse it (apple and rfc5280 read it, as trustd, OpenSSL and GnuTLS do)")
    /// SHA-2 signatures only.
    package static let signatureDigest = TrustRule(
        "webpki.signature-digest", .signatureHashAlgorithms, webPKIOnly, "CA/B BR §7.1.3.2; pyca/cryptography webpki policy",
        "every signature but the anchor's is RSA PKCS#1 v1.5, RSASSA-PSS or ECDSA with SHA-256, SHA-384 or SHA-512 (no SHA-224, no EdDSA)")
    /// cRLDistributionPoints not critical.
    package static let crlDistributionPointsNotCritical = TrustRule(
        "webpki.cdp-not-critical", .extensionCriticality, webPKIOnly, "CA/B BR §7.1.2.11.2",
        "cRLDistributionPoints is not critical")
    /// UTCTime through 2049.
    package static let validityTimeEncoding = TrustRule(
        "webpki.validity-encoding", .temporalValidity, webPKIOnly, "RFC 5280 §4.1.2.5; CA/B BR §7.1.2.7",
        "validity dates through 2049 are encoded as UTCTime (GeneralizedTime only from 2050)")

    /// The Web PKI rules.
    /// The Baseline Requirements' validity-period schedule.
    package static let webPKIValidityPeriod = TrustRule(
        "webpki.validity-period", .validityPeriodMaximums, webPKIOnly, "CA/B BR §6.3.2 (ballot SC-081); Chrome",
        "an SSL server leaf chaining to a system root is valid for at most 398 days when issued before 2026-03-15, 200 days from 2026-03-15, 100 from 2027-03-15 and 47 from 2029-03-15 (notAfter − notBefore; anchors the app supplied or the trust settings make are exempt, as Chrome applies the limit to known roots only)")

    static let webPKIRules: [TrustRule] = [
        leafExtendedKeyUsage, extendedKeyUsageNotCritical, rootWithoutExtendedKeyUsage, leafNotCA, rsaModulusMinimum,
        rsaModulusMultipleOf8, ecdsaNamedCurve, keyAlgorithm, commonNameInSAN, rootAuthorityKeyIdentifier,
        wildcardPublicSuffix, publicSuffixListAvailable, subjectAltNameCriticality, nameConstraintsOnCommonName,
        caKeyUsage, signatureDigest, crlDistributionPointsNotCritical, validityTimeEncoding,
        intermediateExtendedKeyUsage, criticalFalseEncoded, webPKIValidityPeriod,
    ]
}
