import CertKit

/// What the command line knows about an evaluation that its report does not carry, for the renderers: where the
/// anchors came from, where the name checked came from, whether revocation had a source, which OCSP responses came
/// stapled and which from files.
struct ReportNotes: Sendable {
    /// The anchor sources (nil: not shown, as for a report rendered outside a command).
    var anchorSources: AnchorSources?
    /// Where the SSL policy's name came from: `--host`, `--ip`, `--servername`, `the target HOST:PORT`.
    var peerNameOrigin: String?
    /// `--network` was given.
    var network = false
    /// The revocation mode (`--revocation`).
    var revocationMode: RevocationMode = .any
    /// The OCSP responses given to the evaluation that a TLS server stapled; every other given response was read
    /// from a file (`--ocsp-response`, a batch line's `ocsp`).
    var stapledResponses: [OCSPResponse] = []

    /// Why revocation was not checked at all, when the report shows no revocation (nil when it does, or when the
    /// chain is one certificate, which has nothing to check).
    func revocationNotChecked(_ report: TrustReport) -> String? {
        guard report.revocation.isEmpty, report.chain.count > 1 else { return nil }
        if revocationMode == .off { return "revocation not checked (--revocation off)" }
        if network {
            return report.fetches.isEmpty
                ? "revocation not checked (no CRL or OCSP given, and the chain names no responder or CRL to fetch)"
                : "revocation not checked (no CRL or OCSP given, and no usable answer was fetched)"
        }
        return "revocation not checked (no CRL, OCSP or --network)"
    }

    /// The source of `status` (of the certificate at `index` of `report`'s chain) as text: a given OCSP response
    /// is `stapled OCSP` when the server stapled it, `OCSP response file` when it was read from a file.
    func sourceText(_ status: RevocationStatus, index: Int, report: TrustReport) -> String? {
        guard let source = status.source else { return nil }
        if source == .stapledOCSP, !isStapled(index: index, report: report) { return "OCSP response file" }
        return RevocationText.source(source)
    }

    /// The JSON source of `status`: `ocspFile` for a given response read from a file, else the source's name.
    func sourceJSON(_ status: RevocationStatus, index: Int, report: TrustReport) -> String? {
        guard let source = status.source else { return nil }
        if source == .stapledOCSP, !isStapled(index: index, report: report) { return "ocspFile" }
        return source.rawValue
    }

    /// True when a stapled response names the serial number of the certificate at `index`.
    private func isStapled(index: Int, report: TrustReport) -> Bool {
        guard !stapledResponses.isEmpty, index < report.chain.count else { return false }
        let serial = report.chain[index].serialNumber
        return stapledResponses.contains { response in
            response.basic?.responses.contains { $0.certID.serialNumber == serial } ?? false
        }
    }

    /// The hint for the report's error: for SSLHostname, where the name checked came from; for a missing issuer
    /// without `--network`, the caIssuers URL the certificate names.
    func hint(_ report: TrustReport) -> String? {
        guard let error = report.error else { return nil }
        switch error.check {
        case .sslHostname:
            guard let origin = peerNameOrigin, case .ssl(_, let name?, _) = report.policy else { return nil }
            return "the name checked, \"\(name)\", is from \(origin)"
        case .missingIntermediate:
            guard !network, error.certificateIndex < report.chain.count else { return nil }
            let urls = report.chain[error.certificateIndex].extensions.authorityInfoAccess.compactMap { access -> String? in
                guard access.method == "1.3.6.1.5.5.7.48.2", case .uri(let url) = access.location else { return nil }
                return url
            }
            guard let url = urls.first else { return nil }
            return "the certificate names its issuer at \(url); --network fetches it"
        default:
            return nil
        }
    }

    /// `url` shortened for a text line: at most ``urlDisplayLength`` characters, the rest replaced by `…` (an OCSP
    /// GET URL carries the whole request in base64). JSON keeps the URL whole.
    static func shortened(_ url: String) -> String {
        guard url.count > urlDisplayLength else { return url }
        return String(url.prefix(urlDisplayLength - 1)) + "…"
    }

    static let urlDisplayLength = 60
}
