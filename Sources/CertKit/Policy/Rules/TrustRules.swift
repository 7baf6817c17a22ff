/// The catalog of every rule the core enforces, by origin (RFC 5280, Web PKI, Apple, certkit). Docs/Profiles.md
/// lists the same table with the fixture that proves each rule; a test keeps the two in step.
package enum TrustRules {
    /// Every profile.
    static let everyProfile = Set(TrustProfile.allCases)

    /// Every rule, in catalog order.
    package static let all: [TrustRule] = rfc5280Rules + webPKIRules + appleRules + certkitRules + transparencyRules

    /// The rule with identifier `id`, if any.
    package static func rule(id: String) -> TrustRule? { byID[id] }

    private static let byID: [String: TrustRule] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    /// The rule a check is recorded under when its caller names none (tests, and checks whose only rule is
    /// certkit's own).
    package static func generic(for check: TrustCheck) -> TrustRule {
        genericByCheck[check] ?? libraryVerdict
    }

    private static let genericByCheck: [TrustCheck: TrustRule] = {
        var table: [TrustCheck: TrustRule] = [:]
        for rule in [
            validity, basicConstraintsPresent, caFlag, pathLength, caKeyCertSign, criticalExtensions,
            duplicateExtension, malformedExtension, nameConstraints, extendedKeyUsagePurpose, peerName, email,
            weakSignature, weakKey, tlsHashFloor, tlsKeySize, pin, distrust, untrustedRoot, missingIntermediate,
            signature, revocation, crlValidation, pathBuildingLimit, resourceLimit, backendError, maxDepth, serverAuthRequired,
            validityPeriod, keyIdentifierLinkage, caSubjectNotEmpty, unparseableExtension, policyConstraintsCritical,
            serialNumber, authorityKeyIdentifierPresent, subjectKeyIdentifierInCA, extensionCriticality,
            leafNotCA, commonNameInSAN, appleCTRequired,
        ] where table[rule.check] == nil {
            table[rule.check] = rule
        }
        return table
    }()
}
