/// `SSLHostname` / `Email`: the leaf must carry the peer's name. DNS and IP names come from the
/// subjectAltName only (no CN fallback); email addresses from rfc822Name SAN entries or the subject's
/// emailAddress attribute.
public struct PeerNameCheck: PathCheck {
    public init() {}

    public func check(_ context: PathContext, into findings: inout PathFindings) {
        guard let leaf = context.certificates.first else { return }
        let alternativeNames = leaf.extensions.subjectAlternativeNames ?? []
        switch context.policy {
        case .ssl(_, let name?, _):
            if !HostnameMatcher.matches(name, subjectAltNames: alternativeNames) {
                findings.record(.sslHostname, at: 0)
            }
        case .email(let address, _):
            let wanted = address.lowercased()
            let present = alternativeNames.compactMap { name -> String? in
                if case .email(let value) = name { return value.lowercased() }
                return nil
            } + leaf.subject.emailAddresses.map { $0.lowercased() }
            if !present.contains(wanted) { findings.record(.email, at: 0) }
        default:
            break
        }
    }
}
