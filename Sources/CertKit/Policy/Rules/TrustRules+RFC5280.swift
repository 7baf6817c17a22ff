/// RFC 5280 rules (with errata). Those every profile enforces are the path-validation core; the certificate
/// profile rules (serial number, key identifiers, criticality, well-formed name constraints, CRL number) are
/// enforced by `rfc5280`, and by `webpki` where the Baseline Requirements repeat them.
extension TrustRules {
    static let rfcAndWebPKI: Set<TrustProfile> = [.rfc5280, .webpki]

    // MARK: Path validation (every profile)

    /// Validity, inclusive of both ends, to the second.
    package static let validity = TrustRule(
        "rfc5280.validity", .temporalValidity, everyProfile, "RFC 5280 §4.1.2.5, §6.1.3(a)(2)",
        "every certificate of the path is valid at the verify time: notBefore <= time <= notAfter, to the second (a fractional verify time is floored)")
    /// An issuer must carry basicConstraints (a self-signed v1 anchor excepted).
    package static let basicConstraintsPresent = TrustRule(
        "rfc5280.ca-basic-constraints", .basicConstraints, everyProfile, "RFC 5280 §6.1.4(k)",
        "every issuer carries basicConstraints (a self-signed version 1 anchor excepted)")
    /// An issuer must assert cA.
    package static let caFlag = TrustRule(
        "rfc5280.ca-flag", .basicConstraintsCA, everyProfile, "RFC 5280 §6.1.4(k)",
        "every issuer asserts cA in basicConstraints")
    /// pathLenConstraint.
    package static let pathLength = TrustRule(
        "rfc5280.path-length", .basicConstraintsPathLen, everyProfile, "RFC 5280 §4.2.1.9, §6.1.4(l)(m)",
        "no issuer has more non-self-issued intermediates below it than its pathLenConstraint")
    /// An issuer with keyUsage must assert keyCertSign.
    package static let caKeyCertSign = TrustRule(
        "rfc5280.ca-key-cert-sign", .keyUsage, everyProfile, "RFC 5280 §4.2.1.3, §6.1.4(n)",
        "an issuer whose keyUsage is present asserts keyCertSign")
    /// No extension twice.
    package static let duplicateExtension = TrustRule(
        "rfc5280.duplicate-extension", .duplicateExtension, everyProfile, "RFC 5280 §4.2",
        "no certificate carries the same extension twice")
    /// Name constraints of every CA above a certificate.
    package static let nameConstraints = TrustRule(
        "rfc5280.name-constraints", .nameConstraints, everyProfile, "RFC 5280 §4.2.1.10, §6.1.3(b)(c)",
        "every name of a certificate (SAN entries, the subject, subject emailAddress, the matched peer name) lies in the permitted and outside the excluded subtrees of every CA above it; rfc822Name constraints in their three forms (mailbox, host, .domain); a wildcard dNSName stands for every name it can match; a permitted iPAddress subtree holds only addresses of its own family — IPv4, IPv4-mapped IPv6, other IPv6 — so 192.0.2.10 is not within `::ffff:192.0.2.0/120` (an excluded subtree also covers the other spelling of its addresses)")
    /// The maximum number of intermediates.
    package static let maxDepth = TrustRule(
        "rfc5280.max-depth", .chainLength, everyProfile, "RFC 5280 §6.1 (max_path_length); certkit --max-depth",
        "the path has at most max-depth intermediates (the leaf and the anchor are not counted; 0: the leaf is issued by an anchor)")
    /// A key identifier mismatch is not a link.
    package static let keyIdentifierLinkage = TrustRule(
        "rfc5280.key-identifier-linkage", .idLinkage, everyProfile, "RFC 5280 §4.2.1.1, §4.2.1.2",
        "a certificate whose authorityKeyIdentifier keyIdentifier differs from its issuer's subjectKeyIdentifier is not issued by it (path building never makes the link)")
    /// A CA's subject is never empty.
    package static let caSubjectNotEmpty = TrustRule(
        "rfc5280.ca-subject-not-empty", .nonEmptySubject, everyProfile, "RFC 5280 §4.1.2.6; trustd NonEmptySubject",
        "a CA certificate (an issuer, or any certificate asserting cA) has a non-empty subject")
    /// An empty subject needs a critical subjectAltName.
    package static let emptySubjectCriticalSAN = TrustRule(
        "rfc5280.empty-subject-critical-san", .nonEmptySubject, everyProfile, "RFC 5280 §4.2.1.6; trustd NonEmptySubject",
        "a certificate with an empty subject carries a critical subjectAltName")

    // MARK: Certificate profile (rfc5280, and webpki where the BRs repeat it)

    /// Serial numbers.
    package static let serialNumber = TrustRule(
        "rfc5280.serial-number", .serialNumber, rfcAndWebPKI, "RFC 5280 §4.1.2.2; CA/B BR §7.1",
        "the serial number is positive, not zero, and at most 20 octets")
    /// AKI present.
    package static let authorityKeyIdentifierPresent = TrustRule(
        "rfc5280.aki-present", .authorityKeyID, rfcAndWebPKI, "RFC 5280 §4.2.1.1; CA/B BR §7.1.2",
        "every certificate but a self-signed one and the anchor carries authorityKeyIdentifier")
    /// AKI not critical.
    package static let authorityKeyIdentifierNotCritical = TrustRule(
        "rfc5280.aki-not-critical", .authorityKeyID, rfcAndWebPKI, "RFC 5280 §4.2.1.1",
        "authorityKeyIdentifier is not critical")
    /// SKI in CA certificates.
    package static let subjectKeyIdentifierInCA = TrustRule(
        "rfc5280.ski-in-ca", .subjectKeyID, rfcAndWebPKI, "RFC 5280 §4.2.1.2; CA/B BR §7.1.2",
        "every CA certificate carries subjectKeyIdentifier (webpki: the anchor is taken as given)")
    /// SKI not critical.
    package static let subjectKeyIdentifierNotCritical = TrustRule(
        "rfc5280.ski-not-critical", .subjectKeyID, rfcAndWebPKI, "RFC 5280 §4.2.1.2",
        "subjectKeyIdentifier is not critical")
    /// basicConstraints critical in CA certificates.
    package static let caBasicConstraintsCritical = TrustRule(
        "rfc5280.ca-basic-constraints-critical", .basicConstraints, rfcAndWebPKI, "RFC 5280 §4.2.1.9; CA/B BR §7.1.2",
        "a CA certificate marks basicConstraints critical (webpki: the anchor is taken as given)")
    /// keyCertSign only with cA.
    package static let keyCertSignRequiresCA = TrustRule(
        "rfc5280.key-cert-sign-requires-ca", .keyUsage, rfcAndWebPKI, "RFC 5280 §4.2.1.3, §4.2.1.9",
        "a certificate that does not assert cA does not assert keyCertSign")
    /// pathLenConstraint only with cA.
    package static let pathLengthRequiresCA = TrustRule(
        "rfc5280.path-length-requires-ca", .basicConstraints, rfcAndWebPKI, "RFC 5280 §4.2.1.9",
        "a certificate carries pathLenConstraint only when it asserts cA and, when keyUsage is present, keyCertSign")
    /// Name constraints only in CA certificates.
    package static let nameConstraintsInCAOnly = TrustRule(
        "rfc5280.name-constraints-ca-only", .nameConstraints, rfcAndWebPKI, "RFC 5280 §4.2.1.10",
        "only a CA certificate carries nameConstraints")
    /// Name constraints critical.
    package static let nameConstraintsCritical = TrustRule(
        "rfc5280.name-constraints-critical", .nameConstraints, [.rfc5280], "RFC 5280 §4.2.1.10",
        "nameConstraints is critical (webpki and apple accept the non-critical form, as CA/B BR §7.1.2.10.8 allows)")
    /// Name constraints not empty.
    package static let nameConstraintsNotEmpty = TrustRule(
        "rfc5280.name-constraints-not-empty", .nameConstraints, rfcAndWebPKI, "RFC 5280 §4.2.1.10",
        "nameConstraints has permittedSubtrees or excludedSubtrees")
    /// dNSName constraints in the RFC's form.
    package static let nameConstraintsDNSForm = TrustRule(
        "rfc5280.name-constraints-dns-form", .nameConstraints, [.rfc5280], "RFC 5280 §4.2.1.10",
        "a dNSName subtree is a host name, with no leading period (\"example.com\" covers the host and its subdomains)")
    /// Only valid names satisfy a permitted subtree.
    package static let nameConstraintsValidNames = TrustRule(
        "rfc5280.name-constraints-valid-names", .nameConstraints, rfcAndWebPKI, "RFC 5280 §4.2.1.6, §4.2.1.10",
        "a subjectAltName that is not a valid name of its type (a dNSName with '_' or an empty label, an rfc822Name that is not an RFC 5321 Mailbox such as a@b@example.com) never satisfies a permitted subtree, nor lies outside an excluded one")
    /// Host names in the preferred name syntax.
    package static let dnsNameSyntax = TrustRule(
        "rfc5280.dns-name-syntax", .sslHostname, rfcAndWebPKI, "RFC 5280 §4.2.1.6; RFC 1034 §3.5, RFC 1123 §2.1; OpenSSL, pyca/cryptography",
        "a peer DNS name matches only when it and the dNSName are in the preferred name syntax (letters, digits and hyphens, labels of 1–63 characters not starting or ending with a hyphen; a wildcard only as the whole left-most label of the dNSName): foo_bar.example.com matches nothing (apple: trustd's SecDNSMatch compares labels without checking their characters)")
    /// policyConstraints critical.
    package static let policyConstraintsCritical = TrustRule(
        "rfc5280.policy-constraints-critical", .policyConstraints, [.rfc5280], "RFC 5280 §4.2.1.11",
        "policyConstraints is critical")
    /// No policy twice in certificatePolicies.
    package static let certificatePoliciesUnique = TrustRule(
        "rfc5280.certificate-policies-unique", .malformedExtension, everyProfile,
        "RFC 5280 §4.2.1.4; OpenSSL, BoringSSL, Go",
        "no certificatePolicies names the same policy twice (such a value is malformed: OpenSSL, BoringSSL and Go refuse the extension itself, not the path's policies)")
    /// No mapping to or from anyPolicy.
    package static let policyMappingAnyPolicy = TrustRule(
        "rfc5280.policy-mapping-any-policy", .policyConstraints, everyProfile,
        "RFC 5280 §4.2.1.5, §6.1.4(a); trustd PolicyConstraints",
        "no certificate below the anchor maps a policy to or from anyPolicy in policyMappings (§6.1.4(a) makes the path invalid; a policy-processing failure, so PolicyConstraints, as trustd reports them)")
    /// AIA not critical.
    package static let authorityInfoAccessNotCritical = TrustRule(
        "rfc5280.aia-not-critical", .extensionCriticality, rfcAndWebPKI, "RFC 5280 §4.2.2.1; CA/B BR §7.1.2",
        "authorityInfoAccess is not critical")
    /// Other extensions' criticality.
    package static let extensionCriticality = TrustRule(
        "rfc5280.extension-criticality", .extensionCriticality, [.rfc5280], "RFC 5280 §4.2.1.4, §4.2.1.8, §4.2.1.14, §4.2.1.15, §4.2.2.2",
        "inhibitAnyPolicy is critical; subjectDirectoryAttributes, freshestCRL and subjectInfoAccess are not")
    /// CRL number.
    package static let crlNumber = TrustRule(
        "rfc5280.crl-number", .revocationResponseRequired, [.rfc5280], "RFC 5280 §5.2.3",
        "a CRL is used only when it carries a non-critical cRLNumber")

    /// The RFC 5280 rules.
    static let rfc5280Rules: [TrustRule] = [
        validity, basicConstraintsPresent, caFlag, pathLength, caKeyCertSign, duplicateExtension, nameConstraints,
        maxDepth, keyIdentifierLinkage, caSubjectNotEmpty, emptySubjectCriticalSAN, serialNumber,
        authorityKeyIdentifierPresent, authorityKeyIdentifierNotCritical, subjectKeyIdentifierInCA,
        subjectKeyIdentifierNotCritical, caBasicConstraintsCritical, keyCertSignRequiresCA, pathLengthRequiresCA,
        nameConstraintsInCAOnly,
        nameConstraintsCritical, nameConstraintsNotEmpty, nameConstraintsDNSForm, nameConstraintsValidNames, dnsNameSyntax,
        policyConstraintsCritical, certificatePoliciesUnique, policyMappingAnyPolicy, authorityInfoAccessNotCritical,
        extensionCriticality, crlNumber,
    ]
}
