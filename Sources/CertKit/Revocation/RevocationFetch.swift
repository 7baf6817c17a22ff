import Foundation

/// Fetching revocation answers from the network, for an evaluation that allows it (and whose revocation mode is not
/// `off`): for each certificate of the chain with its issuer in the chain, an OCSP request to the responder its
/// authorityInfoAccess names (HTTP GET, RFC 6960 Appendix A.1) when the mode uses OCSP, and — when the mode uses
/// CRLs and OCSP gave no answer (an answer is a valid `good` or `revoked` about it; `unknown`, an answer about another
/// certificate or one that does not validate is none) — the CRLs of its cRLDistributionPoints. What comes back is
/// validated exactly like a stapled response or a CRL file (``RevocationCheck``); a fetch that fails is no answer.
/// A response or CRL that decodes is cached until its nextUpdate when its HTTP answer gave no freshness (the cache
/// is only a cache of bytes: what it returns is validated again at each use).
enum RevocationFetch {
    /// id-ad-ocsp.
    static let ocspMethod = "1.3.6.1.5.5.7.48.1"

    /// Adds to `evaluation` the answers fetched for `chain` (leaf first), judged at `date`; returns true when anything
    /// was added.
    static func fetch(
        for chain: [Certificate], into evaluation: inout TrustEvaluation, session: inout NetworkFetchSession,
        backend: any TrustBackend, limits: Limits, at date: Date
    ) -> Bool {
        let mode = evaluation.revocationMode
        var added = false
        for index in chain.indices.dropLast() {
            let certificate = chain[index]
            let issuer = chain[index + 1]
            var answered = false
            if mode.usesOCSP {
                for responder in uris(certificate.extensions.authorityInfoAccess.filter { $0.method == ocspMethod }.map(\.location)) {
                    guard let request = try? OCSPRequestEncoder.request(for: certificate, issuedBy: issuer, backend: backend)
                    else { continue }
                    let url = OCSPRequestEncoder.getURL(responder: responder, request: request)
                    guard !session.hasFetched(url), let body = session.fetch(url) else { continue }
                    do {
                        let response = try OCSPResponse(derEncoded: body, limits: limits)
                        session.describeLast("OCSP response (\(response.status))")
                        let nextUpdates = response.basic?.responses.map(\.nextUpdate) ?? []
                        if !nextUpdates.isEmpty, !nextUpdates.contains(nil), let expiry = nextUpdates.compactMap({ $0 }).min() {
                            session.access.remember(body, for: url, until: expiry)
                        }
                        evaluation.fetchedOCSPResponses.append(response)
                        let answers = (try? OCSPResponseCheck(backend: backend).answers(
                            about: certificate, issuedBy: issuer, in: [response], at: date)) ?? []
                        answered = answers.contains { $0.isRevoked || $0.goodUntil != nil }
                        added = true
                    } catch {
                        session.describeLast("not an OCSP response: \(error.message)")
                    }
                    if answered { break }
                }
            }
            guard mode.usesCRLs, !answered else { continue }
            for url in uris(certificate.extensions.crlDistributionPoints) where !session.hasFetched(url) {
                guard let body = session.fetch(url) else { continue }
                do {
                    let crls = try CertificateRevocationList.decodeAll(body, limits: limits)
                    session.describeLast("\(crls.count) CRL(s)")
                    let nextUpdates = crls.map(\.nextUpdate)
                    if !nextUpdates.contains(nil), let expiry = nextUpdates.compactMap({ $0 }).min() {
                        session.access.remember(body, for: url, until: expiry)
                    }
                    evaluation.fetchedCRLs += crls
                    added = true
                    break
                } catch {
                    session.describeLast("not a CRL: \(error.message)")
                }
            }
        }
        return added
    }

    /// The `http://` URIs among `names`.
    private static func uris(_ names: [GeneralName]) -> [String] {
        names.compactMap { name in
            guard case .uri(let uri) = name, uri.lowercased().hasPrefix("http://") else { return nil }
            return uri
        }
    }
}
