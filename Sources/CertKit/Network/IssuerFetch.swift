/// Completing an incomplete chain from the network (authorityInfoAccess caIssuers, RFC 5280 §4.2.2.1), as trustd
/// does when network fetching is allowed.
///
/// When the reported chain stops at a certificate whose issuer is missing, each of its caIssuers `http://` URLs not
/// fetched yet in this evaluation is fetched (DER, PEM or PKCS#7 certs-only); the certificates whose subject is that
/// issuer's name join the pool — never the anchors — and the chain is built again. It stops when nothing new comes
/// back, and within the evaluation's ``NetworkFetchSession`` budget, so a loop of references ends.
enum IssuerFetch {
    /// id-ad-caIssuers.
    static let caIssuers = "1.3.6.1.5.5.7.48.2"

    /// The caIssuers URIs of `certificate`, in order.
    static func urls(of certificate: Certificate) -> [String] {
        certificate.extensions.authorityInfoAccess.compactMap { access in
            guard access.method == caIssuers, case .uri(let uri) = access.location else { return nil }
            return uri
        }
    }

    /// The issuers of `certificate` fetched from its caIssuers URLs, not already in `known`; each fetch is
    /// recorded in `session`.
    static func issuers(
        of certificate: Certificate, known: Set<Certificate>, session: inout NetworkFetchSession, limits: Limits
    ) -> [(Certificate, url: String)] {
        var found: [(Certificate, url: String)] = []
        for url in urls(of: certificate) where !session.hasFetched(url) {
            guard let body = session.fetch(url) else { continue }
            let certificates: [Certificate]
            do {
                certificates = try CertificateBundle.decode(body, limits: limits).certificates
            } catch {
                session.describeLast("not a certificate: \(error.message)")
                continue
            }
            let issuers = certificates.filter { $0.subject.matches(certificate.issuer) && !known.contains($0) }
            session.describeLast(issuers.isEmpty
                ? "\(certificates.count) certificate(s), none issued \(MessageText.line(certificate.subject.description, limit: 64))"
                : "\(issuers.count) issuer certificate(s) added to the pool")
            found += issuers.map { ($0, url) }
        }
        return found
    }
}
