import Foundation

/// Human messages for failed checks, naming the certificate, the rule and the profiles that enforce it. No
/// command-line words: the CLI adds how to change profile (it knows its options; the core does not).
enum TrustMessages {
    /// `<what failed> (rule <id> (profiles …))`.
    static func message(
        for check: TrustCheck, rule: TrustRule, certificate: Certificate, policy: TrustPolicy, date: Date
    ) -> String {
        let name = "\"\(displayName(certificate))\""
        let text = rule == TrustRules.generic(for: check) || rule == TrustRules.libraryVerdict
            ? message(for: check, certificate: certificate, policy: policy, date: date)
            : "\(name) breaks the rule that \(rule.summary)"
        return "\(text) (\(rule.citation))"
    }

    /// The message for `check` under its generic rule.
    static func message(for check: TrustCheck, certificate: Certificate, policy: TrustPolicy, date: Date) -> String {
        let name = "\"\(displayName(certificate))\""
        switch check {
        case .temporalValidity:
            return date < certificate.notBefore
                ? "\(name) is not valid until \(day(certificate.notBefore))"
                : "\(name) expired on \(day(certificate.notAfter))"
        case .sslHostname:
            if case .ssl(_, let peer?, _) = policy { return "\(name) is not valid for \"\(peer)\"" }
            if let identities = clientIdentities(policy) { return "\(name) carries none of the identities \(identities)" }
            return "\(name) does not match the host name"
        case .email:
            if case .email(let address, _) = policy { return "\(name) is not valid for \"\(address)\"" }
            if let identities = clientIdentities(policy) { return "\(name) carries none of the identities \(identities)" }
            return "\(name) does not match the email address"
        case .anchorTrusted: return "\(name) is self-signed and is not a trusted anchor"
        case .missingIntermediate: return "no issuer found for \(name) (issuer \(certificate.issuer))"
        case .basicConstraints: return "\(name) is used as a CA but has no basicConstraints"
        case .basicConstraintsCA: return "\(name) is used as a CA but is not a CA (cA is false)"
        case .basicConstraintsPathLen: return "\(name) path length constraint exceeded"
        case .keyUsage: return "\(name) is used as a CA but its key usage lacks keyCertSign"
        case .extendedKeyUsage:
            return "\(name) extended key usage does not allow \(purpose(policy))"
        case .nameConstraints: return "\(name) violates a name constraint of its issuers"
        case .criticalExtensions: return "\(name) has an unknown critical extension"
        case .duplicateExtension: return "\(name) has a duplicate extension"
        case .malformedExtension: return "\(name) has a malformed extension"
        case .signatureHashAlgorithms: return "\(name) is signed with SHA-1, not allowed for TLS"
        case .keySize: return "\(name) key is too small for TLS (\(certificate.publicKey.algorithm))"
        case .weakSignature: return "\(name) is signed with a broken hash (\(certificate.signatureAlgorithm.name))"
        case .weakKeySize: return "\(name) key is too small (\(certificate.publicKey.algorithm))"
        case .revocation: return "\(name) has been revoked"
        case .revocationResponseRequired:
            return "the revocation status of \(name) is unknown: no CRL given for its issuer could be validated"
        case .usageConstraints: return "\(name) is distrusted by a trust setting"
        case .leafSPKISHA256: return "no certificate in the chain of \(name) matches a pinned key"
        case .validityPeriodMaximums:
            return "\(name) validity period is longer than allowed for its issuance date"
        case .chainLength: return "the chain of \(name) is longer than the maximum depth"
        case .signature: return "the signature of \(name) does not verify (or its algorithm is not allowed)"
        case .pathBuildingLimit: return "path building for \(name) stopped at its work limit"
        case .resourceLimit: return "evaluation of \(name) refused at a resource limit"
        case .backendError: return "the backend failed while verifying \(name)"
        case .libraryVerdict: return "the backend's library refuses \(name) for a reason no certkit rule explains"
        case .serialNumber: return "\(name) has a serial number that is negative, zero or longer than 20 octets"
        case .authorityKeyID: return "\(name) has no usable authority key identifier"
        case .subjectKeyID: return "\(name) has no usable subject key identifier"
        case .idLinkage: return "the authority key identifier of \(name) does not match its issuer's subject key identifier"
        case .nonEmptySubject: return "\(name) has an empty subject"
        case .policyConstraints: return "no certificate policy is valid for the path of \(name)"
        case .unparseableExtension: return "\(name) has an extension that cannot be parsed"
        case .extensionCriticality: return "\(name) marks an extension critical (or not) against the rules"
        case .notCA: return "\(name) is a CA certificate used as a leaf"
        case .subjectCommonName: return "the subject common name of \(name) is not one of its subject alternative names"
        case .systemTrustedCTRequired:
            return "\(name) does not carry the Signed Certificate Timestamps the Certificate Transparency policy requires"
        }
    }

    /// The identities a client policy asks for, quoted and comma-separated; nil for other policies.
    static func clientIdentities(_ policy: TrustPolicy) -> String? {
        guard case .sslClient(let identities, _) = policy else { return nil }
        return identities.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    static func displayName(_ certificate: Certificate) -> String {
        certificate.subject.commonName ?? certificate.subject.description
    }

    static func purpose(_ policy: TrustPolicy) -> String {
        if let server = policy.sslServer { return server ? "serverAuth" : "clientAuth" }
        return "this use"
    }

    static func day(_ date: Date) -> String { ISO8601Text.day(date) }
}
