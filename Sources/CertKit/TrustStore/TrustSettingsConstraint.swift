import Foundation

extension TrustSettings {
    /// What a usage constraint says about its certificate (`SecTrustSettingsResult`).
    public enum Result: String, Sendable, Hashable, CaseIterable, Codable {
        /// A trusted root: the certificate is an anchor. Valid only for a self-signed certificate.
        case trustRoot
        /// Trusted as if it were a root: the certificate is an anchor. Valid only for a certificate that is not
        /// self-signed (an intermediate or a leaf).
        case trustAsRoot
        /// Distrusted: a path through the certificate is `deny`.
        case deny
        /// Neither trusted nor distrusted: evaluation proceeds as usual (a constraint that only allows errors).
        case unspecified

        /// True for the two results that make a certificate an anchor.
        public var isAnchor: Bool { self == .trustRoot || self == .trustAsRoot }

        /// The anchor result valid for `certificate`: `trustRoot` when it is self-signed, else `trustAsRoot`
        /// (the default of `security add-trusted-cert`).
        public static func anchor(for certificate: Certificate) -> Result {
            certificate.isSelfSigned ? .trustRoot : .trustAsRoot
        }

        /// True when this result may be given to `certificate` (`trustRoot` needs a self-signed certificate,
        /// `trustAsRoot` one that is not).
        public func isValid(for certificate: Certificate) -> Bool {
            switch self {
            case .trustRoot: certificate.isSelfSigned
            case .trustAsRoot: !certificate.isSelfSigned
            case .deny, .unspecified: true
            }
        }
    }

    /// The policy a usage constraint may be limited to (`kSecTrustSettingsPolicy`).
    public enum Policy: String, Sendable, Hashable, CaseIterable, Codable {
        /// ``TrustPolicy/basicX509``.
        case basic
        /// The SSL server policy (``TrustPolicy/ssl(server:name:profile:)`` with `server == true`).
        case sslServer = "ssl-server"
        /// The SSL client policies (``TrustPolicy/ssl(server:name:profile:)`` with `server == false`, and
        /// ``TrustPolicy/sslClient(identities:profile:)``).
        case sslClient = "ssl-client"

        /// True when a constraint limited to this policy applies to an evaluation under `policy`.
        public func matches(_ policy: TrustPolicy) -> Bool {
            switch (self, policy) {
            case (.basic, .basicX509): true
            case (.sslServer, .ssl(true, _, _)): true
            case (.sslClient, .ssl(false, _, _)), (.sslClient, .sslClient): true
            default: false
            }
        }

        /// True for the SSL policies, the only ones a host name may limit.
        public var isSSL: Bool { self != .basic }
    }

    /// One usage constraint of a certificate's trust settings (one dictionary of Apple's trust settings array).
    public struct UsageConstraint: Sendable, Hashable {
        /// What the constraint says when it applies.
        public var result: Result
        /// The policy it is limited to; nil: every policy.
        public var policy: Policy?
        /// For an SSL policy, the host name (or IP literal) it is limited to; nil: every host.
        public var host: String?
        /// Recoverable checks the user accepts on this certificate when the constraint applies, sorted.
        public var allowedErrors: [TrustCheck]
        /// When the constraint applies, a chain through this certificate (as its anchor or an intermediate) is
        /// not trusted for a leaf issued after this date (`AnchorTrusted`, rule `certkit.distrust-after`): how a
        /// root program distrusts a CA for its new certificates only (trustd's date-constrained CAs, Mozilla's
        /// "distrust after"). A certkit setting: Apple's trust settings have no such key. Nil: no date limit.
        public var distrustAfter: Date?

        /// Creates a constraint.
        public init(
            result: Result, policy: Policy? = nil, host: String? = nil, allowedErrors: Set<TrustCheck> = [],
            distrustAfter: Date? = nil
        ) {
            self.result = result
            self.policy = policy
            self.host = host
            self.allowedErrors = allowedErrors.sorted()
            self.distrustAfter = distrustAfter
        }

        /// Why this constraint cannot be given to `certificate`, or nil when it can: a `trustRoot` for a
        /// certificate that is not self-signed (or `trustAsRoot` for one that is), a host without an SSL policy,
        /// an empty host, or an allowed error that no user setting may cover.
        public func problem(for certificate: Certificate) -> String? {
            if !result.isValid(for: certificate) {
                return result == .trustRoot
                    ? "trustRoot is only for a self-signed certificate; use trustAsRoot"
                    : "trustAsRoot is only for a certificate that is not self-signed; use trustRoot"
            }
            if let host {
                if host.isEmpty || host.contains(where: { $0.isWhitespace }) { return "a host must be a name or an IP address" }
                guard let policy, policy.isSSL else { return "a host limits only the ssl-server and ssl-client policies" }
            }
            if distrustAfter != nil, result == .deny {
                return "a deny distrusts every chain through the certificate; a distrust-after date is for trustRoot, trustAsRoot or unspecified"
            }
            if let refused = allowedErrors.first(where: { !$0.isExceptionAllowed }) {
                return "\(refused.rawValue) cannot be allowed (only recoverable checks other than Signature, "
                    + "RevocationResponseRequired and PathBuildingLimit)"
            }
            return nil
        }

        /// True when the constraint applies to an evaluation under `policy`: its policy (if any) is that policy,
        /// and its host (if any) is the name the policy checks (compared as ``PeerName``: DNS names without
        /// regard to case or one trailing dot, IP addresses by their bytes).
        public func applies(to policy: TrustPolicy) -> Bool {
            if let scope = self.policy, !scope.matches(policy) { return false }
            guard let host else { return true }
            let wanted = Self.normalized(PeerName.parse(host))
            return policy.expectedNames.contains { name in
                switch name {
                case .dnsName(let dns): Self.normalized(.dns(dns)) == wanted
                case .ipAddress(let bytes): Self.normalized(.ip(bytes)) == wanted
                default: false
                }
            }
        }

        private static func normalized(_ name: PeerName) -> PeerName {
            guard case .dns(var text) = name else { return name }
            if text.hasSuffix(".") { text.removeLast() }
            return .dns(text.lowercased())
        }

        /// A short description: `trustRoot`, `deny ssl-server host=example.com allow=TemporalValidity`,
        /// `trustRoot distrust-after=2026-01-01T00:00:00Z`.
        public var summary: String {
            var parts = [result.rawValue]
            if let policy { parts.append(policy.rawValue) }
            if let host { parts.append("host=\(host)") }
            if !allowedErrors.isEmpty { parts.append("allow=" + allowedErrors.map(\.rawValue).joined(separator: ",")) }
            if let distrustAfter { parts.append("distrust-after=" + ISO8601Text.timestamp(distrustAfter)) }
            return parts.joined(separator: " ")
        }
    }
}

/// One certificate and its usage constraints, in order (`SecTrustSettingsCopyTrustSettings` for one certificate).
public struct CertificateTrustSettings: Sendable, Hashable {
    /// The certificate.
    public var certificate: Certificate
    /// Its usage constraints; the first that applies and decides (`trustRoot`, `trustAsRoot`, `deny`) wins.
    public var constraints: [TrustSettings.UsageConstraint]

    /// Creates the settings of `certificate`.
    public init(certificate: Certificate, constraints: [TrustSettings.UsageConstraint]) {
        self.certificate = certificate
        self.constraints = constraints
    }
}
