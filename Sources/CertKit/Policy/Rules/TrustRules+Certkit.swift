/// certkit's own rules, the same in every profile: algorithm floors, names, trust settings, pins, revocation,
/// chain ends, signatures, and the library's second opinion.
extension TrustRules {
    /// Unknown critical extensions.
    package static let criticalExtensions = TrustRule(
        "certkit.critical-extensions", .criticalExtensions, everyProfile, "RFC 5280 §4.2",
        "no certificate carries a critical extension certkit does not process (policy mappings, policy constraints and inhibitAnyPolicy are processed by the policy rules)")
    /// Known extensions must decode.
    package static let malformedExtension = TrustRule(
        "certkit.malformed-extension", .malformedExtension, everyProfile, "RFC 5280 §4.2",
        "every extension certkit decodes is well-formed")
    /// The purpose EKU.
    package static let extendedKeyUsagePurpose = TrustRule(
        "certkit.eku-purpose", .extendedKeyUsage, everyProfile, "RFC 5280 §4.2.1.12; Apple SSL policy",
        "under the SSL policies, an extendedKeyUsage anywhere in the path allows the purpose (serverAuth or clientAuth) or anyExtendedKeyUsage")
    /// The TLS peer name.
    package static let peerName = TrustRule(
        "certkit.peer-name", .sslHostname, everyProfile, "RFC 6125, RFC 9525; Apple SSL policy",
        "the leaf's subjectAltName carries the peer's DNS name (wildcard only as the whole left-most label) or IP address; the subject CN is never used")
    /// The email address.
    package static let email = TrustRule(
        "certkit.email", .email, everyProfile, "RFC 8550; Apple S/MIME policy",
        "the leaf carries the email address (rfc822Name subjectAltName or subject emailAddress)")
    /// Broken digests.
    package static let weakSignature = TrustRule(
        "certkit.weak-signature", .weakSignature, everyProfile, "Apple trustd WeakSignature",
        "no certificate but the anchor is signed with MD2, MD4 or MD5 (fatal)")
    /// Tiny keys.
    package static let weakKey = TrustRule(
        "certkit.weak-key", .weakKeySize, everyProfile, "Apple trustd WeakKeySize",
        "no RSA or DSA key below 1024 bits, no EC key below 160 bits (fatal)")
    /// Explicit EC parameters.
    package static let ecNamedCurve = TrustRule(
        "certkit.ec-named-curve", .keySize, everyProfile, "RFC 5480 §2.1.1; CVE-2020-0601; OpenSSL 3",
        "an EC key names its curve by OID: explicit curve parameters are rejected under every policy")
    /// Keys encoded as their RFC requires.
    package static let publicKeyEncoding = TrustRule(
        "certkit.spki-encoding", .weakKeySize, everyProfile, "RFC 3279 §2.3.1, RFC 5480 §2.2, RFC 8410 §3; trustd WeakKeySize",
        "every key is encoded as its algorithm requires and within the key bounds of Limits: no unused bits, NULL rsaEncryption parameters, a positive odd RSA modulus of at most 16384 bits, an odd RSA exponent of 3 to 64 bits, DSA p at most 10000 bits with q of 160/224/256 bits and 1 < g, y < p, an uncompressed EC point of the curve's length, EdDSA without parameters and a canonically encoded point of more than small order (fatal; nothing such a key signs is verified)")
    /// Keys both backends verify.
    package static let verifiableKeyAlgorithm = TrustRule(
        "certkit.key-algorithm", .weakKeySize, everyProfile, "RFC 3279, RFC 5480, RFC 8410; OpenSSL and GnuTLS key support",
        "every key of the path is RSA, DSA, ECDSA on a NIST prime curve, Ed25519 or Ed448 — keys both backends can verify (secp256k1, Brainpool, other curves and curves spelled out in explicit parameters are refused, and nothing such a key signs is handed to a library; recorded beside apple.key-algorithm where both apply) (fatal)")
    /// The TLS leaf's keyUsage.
    package static let tlsLeafKeyUsage = TrustRule(
        "certkit.tls-leaf-key-usage", .keyUsage, [.apple, .webpki], "RFC 5280 §4.2.1.3; RFC 8446 §4.4.2.2; OpenSSL sslserver purpose",
        "under the SSL policies the leaf's keyUsage, when present, has digitalSignature, keyEncipherment (server only) or keyAgreement (rfc5280 drops the rule: RFC 5280 path validation does not read the leaf's keyUsage, so a CA certificate with keyCertSign alone is a valid path's end)")
    /// A trailing dot on the peer's host name.
    package static let hostTrailingDot = TrustRule(
        "certkit.host-trailing-dot", .sslHostname, [.rfc5280, .webpki], "RFC 6125 §6.2.1; OpenSSL, GnuTLS, pyca/cryptography",
        "a peer DNS name with a trailing dot matches nothing (apple: trustd's SecDNSMatch ignores one trailing dot on the host; a dNSName with a trailing dot matches nothing in every profile)")
    /// SHA-1 under TLS.
    package static let tlsHashFloor = TrustRule(
        "certkit.tls-sha1", .signatureHashAlgorithms, everyProfile, "Apple trustd SignatureHashAlgorithms",
        "under the SSL policies no certificate but the anchor is signed with SHA-1")
    /// Key floors under TLS.
    package static let tlsKeySize = TrustRule(
        "certkit.tls-key-size", .keySize, everyProfile, "Apple trustd KeySize",
        "under the SSL policies RSA keys have at least 2048 bits and EC keys at least 256")
    /// SPKI pins.
    package static let pin = TrustRule(
        "certkit.pin", .leafSPKISHA256, everyProfile, "certkit --pin; Apple ATS pinning",
        "when pins are given, the leaf or a CA of the path has a pinned SPKI SHA-256")
    /// Distrust settings.
    package static let distrust = TrustRule(
        "certkit.distrust", .usageConstraints, everyProfile, "Apple trust settings",
        "no certificate of the path has a distrust setting (deny)")
    /// A distrust-after setting.
    package static let distrustAfter = TrustRule(
        "certkit.distrust-after", .anchorTrusted, everyProfile,
        "certkit trust settings; trustd date-constrained CAs; Mozilla distrust-after",
        "a certificate (anchor or intermediate) that a trust setting distrusts for leaves issued after a date vouches only for leaves issued (notBefore) on or before that date")
    /// The path ends at an untrusted root.
    package static let untrustedRoot = TrustRule(
        "certkit.untrusted-root", .anchorTrusted, everyProfile, "RFC 5280 §6.1",
        "the path ends at a trust anchor, not at a self-signed certificate nobody trusts")
    /// No issuer.
    package static let missingIntermediate = TrustRule(
        "certkit.missing-intermediate", .missingIntermediate, everyProfile, "RFC 5280 §6.1",
        "an issuer is found for every certificate up to a trust anchor")
    /// Signatures.
    package static let signature = TrustRule(
        "certkit.signature", .signature, everyProfile, "RFC 5280 §6.1.3(a)(1); certkit algorithm allowlist",
        "every certificate's signature verifies with its issuer's key, with an allowlisted algorithm (the path is discarded otherwise)")
    /// Revoked.
    package static let revocation = TrustRule(
        "certkit.revocation", .revocation, everyProfile, "RFC 5280 §6.3",
        "no certificate is listed on a valid CRL of its issuer or reported revoked by a valid OCSP response (fatal)")
    /// CRLs that cannot be validated.
    package static let crlValidation = TrustRule(
        "certkit.crl-validation", .revocationResponseRequired, everyProfile, "RFC 5280 §6.3.3",
        "when CRLs are given for an issuer, one of them validates (signature, issuer, cRLSign, thisUpdate/nextUpdate, no unknown critical extension)")
    /// OCSP responses that cannot be validated.
    package static let ocspValidation = TrustRule(
        "certkit.ocsp-validation", .revocationResponseRequired, everyProfile, "RFC 6960 §3.2, §4.2.2.2",
        "when OCSP responses name a certificate, one of them validates (signed by the issuer or by a responder it delegated with the OCSPSigning EKU that is not a CA, thisUpdate/nextUpdate, no unknown critical extension)")
    /// A positive revocation answer is required.
    package static let revocationRequired = TrustRule(
        "certkit.revocation-required", .revocationResponseRequired, everyProfile, "Apple kSecRevocationRequirePositiveResponse",
        "with require-revocation, every certificate below the anchor has a valid answer that it is not revoked (a good OCSP response or a valid CRL that does not list it)")
    /// Path building limit.
    package static let pathBuildingLimit = TrustRule(
        "certkit.path-building-limit", .pathBuildingLimit, everyProfile, "certkit ChainBuilder.Limits",
        "path building finishes within its work limits")
    /// The evaluation bounds of ``Limits`` (fatal: the bounded work is refused, never passed).
    package static let resourceLimit = TrustRule(
        "certkit.resource-limit", .resourceLimit, everyProfile, "certkit Limits",
        "the evaluation stays within its bounds: pool, anchors, CRLs and CRL entries, name-constraint comparisons, policy-graph nodes (fatal)")
    /// The library's own verifier, in the audit mode only (``TrustEvaluator/Configuration/libraryAudit``).
    package static let libraryVerdict = TrustRule(
        "certkit.library-verdict", .libraryVerdict, everyProfile, "certkit audit mode",
        "in the audit mode, the backend's library accepts the path the core chose too, or refuses it only for a reason a core rule already failed or a known library deviation from RFC 5280 explains (LibraryVerdict, with the library's words; off by default)")
    /// The backend failed.
    package static let backendError = TrustRule(
        "certkit.backend-error", .backendError, everyProfile, "certkit",
        "the backend does not fail while verifying (otherError)")

    /// certkit's rules.
    static let certkitRules: [TrustRule] = [
        criticalExtensions, malformedExtension, extendedKeyUsagePurpose, peerName, email, weakSignature, weakKey, ecNamedCurve,
        publicKeyEncoding, verifiableKeyAlgorithm, tlsLeafKeyUsage, hostTrailingDot, tlsHashFloor, tlsKeySize, pin, distrust, distrustAfter, untrustedRoot, missingIntermediate, signature, revocation,
        crlValidation, ocspValidation, revocationRequired, pathBuildingLimit, resourceLimit, libraryVerdict, backendError,
    ]
}
