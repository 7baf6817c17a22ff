/// A policy an evaluation checks, as `SecPolicyCreateBasicX509` / `SecPolicyCreateSSL`.
public enum TrustPolicy: Sendable, Hashable, CustomStringConvertible {
    /// RFC 5280 path validation only; its profile is always ``TrustProfile/rfc5280``.
    case basicX509
    /// TLS: `server == true` checks a server certificate (serverAuth EKU, host name), `false` a client one.
    /// `name` is what the peer must be: a DNS name, an IP address, or nil to skip name checks.
    case ssl(server: Bool, name: PeerName?, profile: TrustProfile)
    /// A TLS client certificate that must carry at least one of `identities`: DNS names (dNSName SANs, wildcards
    /// as for servers), IP addresses (iPAddress SANs) and email addresses (rfc822Name SANs or the subject's
    /// emailAddress). Checks the clientAuth EKU as ``ssl(server:name:profile:)`` with `server == false` does.
    case sslClient(identities: [GeneralName], profile: TrustProfile)
    /// S/MIME-style email check: the address must be in the leaf's SAN (or subject emailAddress).
    case email(address: String, profile: TrustProfile)

    /// The SSL server policy for `host`: `.ssl(server: true, name: host.map(PeerName.parse), profile: profile)`,
    /// as `SecPolicyCreateSSL(true, host)`.
    ///
    /// `host` is read by ``PeerName/parse(_:)`` and may be either of two things:
    /// - an IP literal — a canonical IPv4 dotted quad (`192.0.2.1`) or IPv6 text (`2001:db8::1`,
    ///   `::ffff:192.0.2.1`), without brackets or a zone id — becomes ``PeerName/ip(_:)``. It is matched only
    ///   against the leaf's iPAddress subjectAltNames, byte for byte: 4 bytes against 4-byte entries, 16 against
    ///   16 (an IPv4-mapped IPv6 address matches only a 16-byte entry of the same bytes, not the IPv4 entry),
    ///   never against a dNSName or the common name;
    /// - anything else is a DNS name, ``PeerName/dns(_:)``, matched against dNSName subjectAltNames only
    ///   (no common-name fallback): case-insensitively, a wildcard only as the whole left-most label, one
    ///   trailing dot on the host ignored under ``TrustProfile/apple`` (the `rfc5280` and `webpki` profiles
    ///   refuse such a host, and a dNSName with a trailing dot matches nothing). Text that only looks like an
    ///   address (`1.2.3.4.`, `01.2.3.4`, `0x7f.1`, `127.1`, `[::1]`, `fe80::1%eth0`) is not a host name and
    ///   matches nothing, so the policy fails `SSLHostname`. Strip URL brackets first (``ServerTrust`` does).
    ///
    /// `nil` skips the name check (the chain must still be a valid server chain).
    public static func sslServer(host: String?, profile: TrustProfile = .apple) -> TrustPolicy {
        .ssl(server: true, name: host.map { PeerName.parse($0) }, profile: profile)
    }

    /// The profile in force.
    public var profile: TrustProfile {
        switch self {
        case .basicX509: .rfc5280
        case .ssl(_, _, let profile), .sslClient(_, let profile), .email(_, let profile): profile
        }
    }

    /// True for the SSL policies (where SHA-1 and small keys are recoverable failures).
    public var isSSL: Bool { sslServer != nil }

    /// For the SSL policies, true when the leaf must be a server certificate and false for a client one; nil
    /// for the other policies.
    public var sslServer: Bool? {
        switch self {
        case .ssl(let server, _, _): server
        case .sslClient: false
        case .basicX509, .email: nil
        }
    }

    /// The names of which the leaf must carry at least one (empty: no name is checked), as GeneralNames.
    public var expectedNames: [GeneralName] {
        switch self {
        case .basicX509, .ssl(_, .none, _): []
        case .ssl(_, .dns(let host)?, _): [.dnsName(host)]
        case .ssl(_, .ip(let address)?, _): [.ipAddress(address)]
        case .sslClient(let identities, _): identities
        case .email(let address, _): [.email(address)]
        }
    }

    /// The policy's name: `basic`, `ssl-server`, `ssl-client` or `email`.
    public var description: String {
        let name: PolicyName = switch self {
        case .basicX509: .basic
        case .ssl(let server, _, _): server ? .sslServer : .sslClient
        case .sslClient: .sslClient
        case .email: .email
        }
        return name.rawValue
    }
}

/// Which rule set (verification profile) an evaluation applies. Every rule lives once in the core
/// (`TrustRules`) and says which profiles enforce it; Docs/Profiles.md has the table.
public enum TrustProfile: String, Sendable, Hashable, CaseIterable {
    /// Apple's trustd: path validation plus Apple's own rules (serverAuth EKU for TLS server leaves issued on or
    /// after 2019-07-01, trustd's validity-period maximums by the anchor's origin, NonEmptySubject,
    /// PolicyConstraints, UnparseableExtension).
    /// The default for the SSL and email policies.
    case apple
    /// RFC 5280 as written, with errata: path validation plus the certificate profile (serial numbers, key
    /// identifiers, extension criticality, well-formed name constraints, CRL numbers). The basic policy's profile.
    case rfc5280
    /// The Web PKI: the CA/Browser Forum Baseline Requirements and root-program rules as Chrome, Mozilla, Go,
    /// rustls and pyca/cryptography apply them (leaf EKU, key algorithms and sizes, CN in SAN, public-suffix
    /// wildcards, ...).
    case webpki

    /// Hashes the case, not its name (the default for a `String`-backed enum hashes the raw value; every policy
    /// check asks its rules' profile sets).
    public func hash(into hasher: inout Hasher) { hasher.combine(bit) }

    /// One bit per profile, for sets of profiles kept as a byte.
    var bit: UInt8 {
        switch self {
        case .apple: 1
        case .rfc5280: 2
        case .webpki: 4
        }
    }
}

/// The name a TLS peer must carry.
public enum PeerName: Sendable, Hashable, CustomStringConvertible {
    /// A DNS host name (compared case-insensitively; one trailing dot ignored under the apple profile, refused
    /// under the others). Text that looks like an IP address without being a canonical literal (see
    /// ``parse(_:)``) is not a host name: as a DNS name it matches no subjectAltName at all, so the SSL policy
    /// fails `SSLHostname`.
    case dns(String)
    /// An IPv4 (4 bytes) or IPv6 (16 bytes) address, matched against iPAddress subjectAltNames only, byte for
    /// byte (an IPv4-mapped IPv6 address matches only an iPAddress entry of the same 16 bytes).
    case ip([UInt8])

    /// Reads a peer name given as text (a `--host` argument, a URL host with its brackets removed):
    /// - a canonical IPv4 dotted quad — exactly four decimal octets 0–255 without leading zeros (`192.0.2.1`)
    ///   — or an IPv6 literal in RFC 4291 text (`2001:db8::1`, `::ffff:192.0.2.1`) is ``PeerName/ip(_:)``;
    /// - anything else is ``PeerName/dns(_:)`` with the text unchanged. That includes text that only looks like an address:
    ///   a trailing dot (`1.2.3.4.`), leading zeros (`01.2.3.4`), octal or hex parts (`0177.0.0.1`,
    ///   `0x7f.1`), shortened forms (`127.1`), a last label that is all digits or `0x…` (the WHATWG URL
    ///   "ends in a number" rule, `host.0x10`, `a.123`), brackets (`[::1]`) and IPv6 zone ids (`fe80::1%eth0`).
    ///   Other parsers read those as IP addresses, so certkit must not match them against DNS names (a
    ///   dNSName `*.2.3.4` must not cover `1.2.3.4.`): `HostnameMatcher` matches such a DNS name against
    ///   nothing, and the SSL policy reports `SSLHostname`.
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
