import CertKit

/// A policy given as option strings — a policy name, a profile name and the identities to check — made into a
/// ``TrustPolicy`` in one place, for the command line (`--policy`, `--profile`, `--host`, `--ip`, `--email`) and
/// the test scenarios (Tests/Support) alike.
///
/// With no policy name: `email` when an email address is given, `ssl-server` when a host or IP is, else `basic`.
/// With no profile: `apple`, except `basic`, which is always `rfc5280`.
package struct PolicyOptions: Sendable, Hashable {
    /// `basic`, `ssl-server`, `ssl-client` or `email`; nil chooses from the identities.
    package var policy: String?
    /// `apple`, `rfc5280` or `webpki`; nil is the policy's default.
    package var profile: String?
    /// Host names or IP literals (`--host`); an IP literal is an IP identity.
    package var hosts: [String]
    /// IP addresses (`--ip`).
    package var ips: [String]
    /// Email addresses (`--email`).
    package var emails: [String]

    /// Why the options name no policy. The command line words each case as a usage error.
    package enum Problem: Error, Sendable, Equatable {
        /// The policy name is not one of ``PolicyName``.
        case unknownPolicy(String)
        /// The profile name is not a ``TrustProfile``.
        case unknownProfile(String)
        /// A host is the empty string.
        case emptyHost
        /// An `ips` entry is not an IPv4 or IPv6 literal.
        case notAnIPAddress(String)
        /// An `emails` entry has no `@`.
        case notAnEmailAddress(String)
        /// Identities were given under the basic policy.
        case identitiesUnderBasic
        /// A profile other than `rfc5280` was given under the basic policy.
        case profileUnderBasic(TrustProfile)
        /// The email policy was given other than exactly one email address and nothing else.
        case emailPolicyNeedsOneEmail
        /// An email address was given under the SSL server policy.
        case emailUnderSSLServer
        /// More than one host or IP was given under the SSL server policy.
        case severalIdentitiesUnderSSLServer
    }

    /// Creates the options.
    package init(
        policy: String? = nil, profile: String? = nil, hosts: [String] = [], ips: [String] = [], emails: [String] = []
    ) {
        self.policy = policy
        self.profile = profile
        self.hosts = hosts
        self.ips = ips
        self.emails = emails
    }

    /// The policy these options name.
    /// - Throws: the first ``Problem`` found.
    package func trustPolicy() throws(Problem) -> TrustPolicy {
        var chosenProfile: TrustProfile?
        if let profile {
            guard let value = TrustProfile(rawValue: profile) else { throw .unknownProfile(profile) }
            chosenProfile = value
        }
        if hosts.contains(where: \.isEmpty) { throw .emptyHost }
        var identities: [GeneralName] = []
        for host in hosts {
            switch PeerName.parse(host) {
            case .dns(let name): identities.append(.dnsName(name))
            case .ip(let bytes): identities.append(.ipAddress(bytes))
            }
        }
        for ip in ips {
            guard case .ip(let bytes) = PeerName.parse(ip) else { throw .notAnIPAddress(ip) }
            identities.append(.ipAddress(bytes))
        }
        for email in emails {
            guard email.contains("@") else { throw .notAnEmailAddress(email) }
            identities.append(.email(email))
        }
        let name: PolicyName
        if let policy {
            guard let value = PolicyName(rawValue: policy) else { throw .unknownPolicy(policy) }
            name = value
        } else {
            name = !emails.isEmpty ? .email : (identities.isEmpty ? .basic : .sslServer)
        }
        let profile = chosenProfile ?? .apple
        switch name {
        case .basic:
            if !identities.isEmpty { throw .identitiesUnderBasic }
            if let chosenProfile, chosenProfile != .rfc5280 { throw .profileUnderBasic(chosenProfile) }
            return .basicX509
        case .email:
            guard emails.count == 1, hosts.isEmpty, ips.isEmpty else { throw .emailPolicyNeedsOneEmail }
            return .email(address: emails[0], profile: profile)
        case .sslServer:
            if !emails.isEmpty { throw .emailUnderSSLServer }
            if identities.count > 1 { throw .severalIdentitiesUnderSSLServer }
            return .ssl(server: true, name: Self.peerName(identities.first), profile: profile)
        case .sslClient:
            if identities.count <= 1, emails.isEmpty {
                return .ssl(server: false, name: Self.peerName(identities.first), profile: profile)
            }
            return .sslClient(identities: identities, profile: profile)
        }
    }

    private static func peerName(_ identity: GeneralName?) -> PeerName? {
        switch identity {
        case .dnsName(let name)?: .dns(name)
        case .ipAddress(let bytes)?: .ip(bytes)
        default: nil
        }
    }
}
