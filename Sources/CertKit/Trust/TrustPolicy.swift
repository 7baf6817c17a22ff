/// A policy an evaluation checks, as `SecPolicyCreateBasicX509` / `SecPolicyCreateSSL`.
public enum TrustPolicy: Sendable, Hashable, CustomStringConvertible {
    /// RFC 5280 path validation only.
    case basicX509
    /// TLS: `server == true` checks a server certificate (serverAuth EKU, host name), `false` a client one.
    /// `name` is what the peer must be: a DNS name, an IP address, or nil to skip name checks.
    case ssl(server: Bool, name: PeerName?, profile: TrustProfile)
    /// S/MIME-style email check: the address must be in the leaf's SAN (or subject emailAddress).
    case email(address: String, profile: TrustProfile)

    /// A convenience for `.ssl(server: true, name: .dns(host), profile: .apple)`.
    public static func sslServer(host: String?, profile: TrustProfile = .apple) -> TrustPolicy {
        .ssl(server: true, name: host.map { PeerName.parse($0) }, profile: profile)
    }

    /// The profile in force.
    public var profile: TrustProfile {
        switch self {
        case .basicX509: .rfc5280
        case .ssl(_, _, let profile), .email(_, let profile): profile
        }
    }

    /// True for the SSL policies (where SHA-1 and small keys are recoverable failures).
    public var isSSL: Bool {
        if case .ssl = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .basicX509: "basic"
        case .ssl(let server, _, _): server ? "ssl-server" : "ssl-client"
        case .email: "email"
        }
    }
}

/// Which rule set applies on top of RFC 5280.
public enum TrustProfile: String, Sendable, Hashable, CaseIterable {
    /// Apple's rules: serverAuth EKU required, 825-day limit for leaves issued on or after 2019-07-01.
    case apple
    /// RFC 5280 only: the Apple-only rules are not applied.
    case rfc5280
}

/// The name a TLS peer must carry.
public enum PeerName: Sendable, Hashable, CustomStringConvertible {
    /// A DNS host name (compared case-insensitively, trailing dot ignored).
    case dns(String)
    /// An IPv4 (4 bytes) or IPv6 (16 bytes) address.
    case ip([UInt8])

    /// Reads an IPv4/IPv6 literal as ``PeerName/ip(_:)``, anything else as ``PeerName/dns(_:)``.
    public static func parse(_ text: String) -> PeerName {
        if let bytes = IPAddressParsing.parse(text) { return .ip(bytes) }
        return .dns(text)
    }

    public var description: String {
        switch self {
        case .dns(let name): name
        case .ip(let bytes): IPAddressFormatting.string(bytes)
        }
    }
}
