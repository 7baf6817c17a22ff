/// `SSLHostname` / `Email`: the leaf must carry the peer's name (`TrustRules/peerName`, `TrustRules/email`).
/// DNS and IP names come from the subjectAltName only (no CN fallback); email addresses from rfc822Name SAN
/// entries or the subject's emailAddress attribute. A client policy with several identities needs one of them.
///
/// Under rfc5280 and webpki a DNS name outside the preferred name syntax matches nothing
/// (`TrustRules/dnsNameSyntax`: `foo_bar.example.com`; apple compares labels as trustd does). The dNSName it would
/// match is then in that syntax too: an exact match is the same name, and a wildcard's remainder is the host's.
/// Under the Web PKI a wildcard dNSName whose remainder is a public suffix (`*.co.uk`, `*.github.io`) matches
/// nothing (`TrustRules/wildcardPublicSuffix`); without a readable Public Suffix List no wildcard matches
/// (`TrustRules/publicSuffixListAvailable`, the note names the missing file).
package struct PeerNameCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        let wanted = context.policy.expectedNames
        guard !wanted.isEmpty, let leaf = context.certificates.first else { return }
        let alternativeNames = leaf.extensions.subjectAlternativeNames ?? []
        var blockedBy: (rule: TrustRule, note: String)?
        for name in wanted {
            switch name {
            case .dnsName(let host):
                if host.hasSuffix("."), context.enforces(TrustRules.hostTrailingDot) {
                    blockedBy = (TrustRules.hostTrailingDot, "\(DisplayText.escaped(host)) ends with a dot")
                    continue
                }
                if context.enforces(TrustRules.dnsNameSyntax), !NameSyntax.isHostName(host) {
                    blockedBy = (TrustRules.dnsNameSyntax, "\(DisplayText.escaped(host)) is not in the preferred name syntax")
                    continue
                }
                if HostnameMatcher.matches(.dns(host), subjectAltNames: usable(alternativeNames, context, &blockedBy)) {
                    return
                }
            case .ipAddress(let address):
                if HostnameMatcher.matches(.ip(address), subjectAltNames: alternativeNames) { return }
            case .email(let address):
                if Self.carries(leaf, email: address) { return }
            default:
                break
            }
        }
        // No name matched. Say so under the Web PKI rule when only its wildcard rule stood in the way.
        if let blockedBy, wanted.contains(where: { name in
            if case .dnsName(let host) = name { return HostnameMatcher.matches(.dns(host), subjectAltNames: alternativeNames) }
            return false
        }) {
            findings.record(blockedBy.rule, at: 0, note: blockedBy.note)
            return
        }
        let onlyEmail = wanted.allSatisfy { if case .email = $0 { return true } else { return false } }
        findings.record(onlyEmail ? TrustRules.email : TrustRules.peerName, at: 0)
    }

    /// The SAN entries a DNS name may match under the profile in force: under the Web PKI, wildcards whose
    /// remainder is a public suffix (or every wildcard, when the list cannot be read) are left out and the reason
    /// is kept in `blockedBy`.
    private func usable(
        _ names: [GeneralName], _ context: PathContext, _ blockedBy: inout (rule: TrustRule, note: String)?
    ) -> [GeneralName] {
        guard context.enforces(TrustRules.wildcardPublicSuffix) else { return names }
        return names.filter { name in
            guard case .dnsName(let pattern) = name, pattern.hasPrefix("*.") else { return true }
            let remainder = String(pattern.dropFirst(2))
            switch PublicSuffixList.shared {
            case .success(let list):
                guard list.isPublicSuffix(remainder) else { return true }
                blockedBy = (TrustRules.wildcardPublicSuffix, "\(pattern): \(remainder) is a public suffix")
                return false
            case .failure(let error):
                blockedBy = (TrustRules.publicSuffixListAvailable, "\(pattern): \(error.message)")
                return false
            }
        }
    }

    /// True when `leaf` carries `address` in an rfc822Name SAN or its subject's emailAddress (case-insensitive).
    static func carries(_ leaf: Certificate, email address: String) -> Bool {
        let wanted = address.lowercased()
        let sans = (leaf.extensions.subjectAlternativeNames ?? []).compactMap { name -> String? in
            if case .email(let value) = name { return value.lowercased() }
            return nil
        }
        return (sans + leaf.subject.emailAddresses.map { $0.lowercased() }).contains(wanted)
    }
}
