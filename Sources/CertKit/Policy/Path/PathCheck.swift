import Foundation

/// Everything a policy check needs to judge one candidate path.
package struct PathContext: Sendable {
    /// The candidate path, leaf first.
    package var path: CandidatePath
    /// The policy being checked.
    package var policy: TrustPolicy
    /// The verification time.
    package var date: Date
    /// SPKI pins (empty: no pinning).
    package var pins: [SPKIPin]
    /// The SHA-256 of each path certificate's SubjectPublicKeyInfo, computed by the backend's library, when
    /// ``pins`` are given (empty otherwise; a missing digest matches no pin).
    package var spkiDigests: [[UInt8]]
    /// Trust settings.
    package var trustSettings: TrustSettings
    /// The same settings, indexed: what they say about each certificate under ``policy``.
    package var trustSettingsIndex: TrustSettingsIndex
    /// The most intermediates a path may have (the leaf and the anchor are not counted).
    package var maxDepth: Int
    /// Where the path's anchor comes from; nil when the path does not end at an anchor (under ``policy``).
    package var anchorOrigin: AnchorOrigin?
    /// The evaluation's bounds (the policy graph's, `Limits/maxPolicyGraphNodes`, is checked by a policy rule).
    package var limits: Limits

    /// The certificates.
    package var certificates: [Certificate] { path.certificates }

    /// The index of the anchor, when the path ends at one.
    package var anchorIndex: Int? { path.endsAtAnchor ? path.certificates.count - 1 : nil }

    /// Indices of the certificates that act as issuers (everything but the leaf).
    package var issuerIndices: Range<Int> { 1..<max(1, path.certificates.count) }

    /// The profile in force.
    package var profile: TrustProfile { policy.profile }

    /// True when the profile in force enforces `rule`.
    package func enforces(_ rule: TrustRule) -> Bool { rule.isEnforced(by: policy.profile) }

    /// True when the rules a certificate meets because it is a CA (`TrustRules/caKeyUsage`,
    /// `TrustRules/subjectKeyIdentifierInCA`, `TrustRules/caBasicConstraintsCritical`) apply to the certificate at
    /// `index`: under webpki to every certificate but the anchor — the Web PKI takes the anchor as given, a name and
    /// a key, as rustls-webpki and Chrome do — and under apple and rfc5280 to every certificate, as
    /// `openssl verify -x509_strict` checks them.
    package func appliesCAProfileRules(at index: Int) -> Bool { profile != .webpki || index != anchorIndex }

    /// True when the leaf is issued (the path is not a lone leaf that is itself the anchor).
    package var leafIsIssued: Bool { anchorIndex != 0 }

    /// Creates a context.
    package init(
        path: CandidatePath, policy: TrustPolicy, date: Date, pins: [SPKIPin] = [],
        trustSettings: TrustSettings = .none, maxDepth: Int = TrustEvaluation.defaultMaxDepth,
        anchorOrigin: AnchorOrigin? = .appSupplied, spkiDigests: [[UInt8]] = [], limits: Limits = .default,
        trustSettingsIndex: TrustSettingsIndex? = nil
    ) {
        self.limits = limits
        self.spkiDigests = spkiDigests
        self.path = path
        self.policy = policy
        self.date = date
        self.pins = pins
        self.trustSettings = trustSettings
        self.trustSettingsIndex = trustSettingsIndex ?? TrustSettingsIndex(trustSettings)
        self.maxDepth = maxDepth
        self.anchorOrigin = anchorOrigin
    }
}

/// One concept of policy, evaluated by the core identically for every backend (Docs/Architecture.md, "One owner per rule"). A check records
/// each failure under the ``TrustRule`` it breaks, and only for the rules the profile in force enforces.
package protocol PathCheck: Sendable {
    /// Records this check's failures for `context` into `findings`.
    func check(_ context: PathContext, into findings: inout PathFindings)
}

/// The core's rule set, in a fixed order (which decides the rule reported when two rules record the same check
/// on the same certificate: the first).
package enum CorePolicy {
    /// Every check the core applies to a candidate path.
    package static let checks: [any PathCheck] = [
        ValidityCheck(), CAConstraintsCheck(), ExtensionIntegrityCheck(), ExtendedKeyUsageCheck(),
        PeerNameCheck(), NameConstraintsCheck(), AlgorithmStrengthCheck(), AppleServerProfileCheck(),
        ValidityPeriodCheck(), PinCheck(), DistrustCheck(), DistrustAfterCheck(), ChainLengthCheck(),
        PathCompletenessCheck(),
        // Certificate profile rules (RFC 5280 §4, CA/B Forum BRs, trustd).
        SerialNumberCheck(), AuthorityKeyIdentifierCheck(), SubjectKeyIdentifierCheck(), KeyIdentifierLinkageCheck(),
        BasicConstraintsCriticalityCheck(), KeyCertSignCheck(), SubjectNameCheck(), NameConstraintsFormCheck(),
        ExtensionCriticalityCheck(), UnparseableExtensionCheck(), PolicyConstraintsCheck(), PublicKeyUsabilityCheck(),
        LeafKeyUsageCheck(), PathLengthRequiresCACheck(),
        // Web PKI rules.
        LeafExtendedKeyUsageCheck(), LeafNotCACheck(), PublicKeyProfileCheck(), CommonNameInSANCheck(),
        WebPKICertificateFormCheck(),
    ]

    /// Runs every rule on `context`.
    package static func findings(for context: PathContext) -> PathFindings {
        var findings = PathFindings(count: context.certificates.count)
        for rule in checks { rule.check(context, into: &findings) }
        return findings
    }
}
