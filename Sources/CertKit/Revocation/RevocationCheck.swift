import Foundation

/// Revocation by CRL and OCSP, decided in one place for every backend (Docs/Architecture.md, "One owner per rule"; Docs/TrustModel.md).
///
/// OCSP responses are validated by ``OCSPResponseCheck``: a valid `revoked` answer is `Revocation` (fatal), a valid
/// `good` one a positive answer, `unknown` no answer; when responses name a certificate and none validates, it is
/// `RevocationResponseRequired`. Under `requireRevocation`, a certificate below the anchor with no positive answer
/// (good OCSP, or a valid CRL that does not list it) is `RevocationResponseRequired`.
///
/// For each certificate of the path that has its issuer in the path, the CRLs naming that issuer are validated:
/// the tbsCertList's algorithm equals the outer one, the algorithm is allowed and not broken, the issuer's key
/// fits it and verifies it (backend), the issuer's keyUsage (when present) asserts cRLSign, thisUpdate − 5 min ≤ date ≤
/// nextUpdate, and no critical extension certkit does not implement. The certificate is `Revocation` (fatal) when
/// a valid CRL lists its serial; when CRLs were given for its issuer and none validates, it is
/// `RevocationResponseRequired`. An invalid CRL never masks a valid one; no exception covers either check.
/// Under a profile that enforces `TrustRules/crlNumber` (rfc5280), a CRL must also carry a non-critical
/// cRLNumber (RFC 5280 §5.2.3).
struct RevocationCheck {
    let backend: any TrustBackend
    /// True when a CRL without a non-critical cRLNumber is refused.
    let requireCRLNumber: Bool
    /// Validation results already reached in this evaluation, by (CRL, issuer).
    private var validations: [Key: String?] = [:]

    private struct Key: Hashable {
        var crl: CertificateRevocationList
        var issuer: Certificate
    }

    init(backend: any TrustBackend, requireCRLNumber: Bool = false) {
        self.backend = backend
        self.requireCRLNumber = requireCRLNumber
    }

    /// What the revocation check of one path found: the CRLs that validated (for the library's second opinion)
    /// and, per certificate of the path, whether and how revocation was checked.
    struct Outcome {
        var usableCRLs: [CertificateRevocationList] = []
        var statuses: [RevocationStatus]
    }

    /// Records the revocation findings of `path` at `date` from `evaluation`'s CRLs and OCSP responses, as its
    /// ``TrustEvaluation/revocationMode`` selects; under ``TrustEvaluation/requireRevocation`` a certificate below
    /// the anchor without a positive answer is `RevocationResponseRequired`.
    mutating func check(
        _ path: CandidatePath, evaluation: TrustEvaluation, at date: Date, into findings: inout PathFindings
    ) throws(BackendError) -> Outcome {
        let certificates = path.certificates
        // Every certificate with its issuer in the path is "not checked" until an answer is found; the last one
        // (the anchor, or where the path stops) is not applicable.
        var outcome = Outcome(statuses: certificates.indices.map {
            RevocationStatus(outcome: $0 < certificates.count - 1 ? .notChecked : .notApplicable)
        })
        let mode = evaluation.revocationMode
        let crls = mode.usesCRLs ? evaluation.crls + evaluation.fetchedCRLs : []
        let stapled = mode.usesOCSP ? evaluation.ocspResponses : []
        let fetched = mode.usesOCSP ? evaluation.fetchedOCSPResponses : []
        let require = evaluation.requireRevocation && mode != .off
        guard !crls.isEmpty || !stapled.isEmpty || !fetched.isEmpty || require else { return outcome }
        let ocsp = OCSPResponseCheck(backend: backend)
        for index in certificates.indices.dropLast() {
            let certificate = certificates[index]
            let issuer = certificates[index + 1]
            var status = RevocationStatus(outcome: .notChecked)
            if !crls.isEmpty {
                status = try checkCRLs(
                    certificate, at: index, issuer: issuer, crls: crls, files: evaluation.crls, date: date,
                    usable: &outcome.usableCRLs, into: &findings)
            }
            let stapledAnswers = try ocsp.answers(about: certificate, issuedBy: issuer, in: stapled, at: date)
            let fetchedAnswers = try ocsp.answers(about: certificate, issuedBy: issuer, in: fetched, at: date)
            let answers = stapledAnswers + fetchedAnswers
            let source: RevocationSource =
                stapledAnswers.contains { $0.isRevoked || $0.goodUntil != nil } ? .stapledOCSP : .ocsp
            if let revoked = answers.first(where: \.isRevoked), case .revoked(let date, let reason) = revoked {
                findings.record(TrustRules.revocation, at: index, note: "reported revoked by a valid OCSP response")
                status = RevocationStatus(
                    outcome: .revoked, source: stapledAnswers.contains(where: \.isRevoked) ? .stapledOCSP : .ocsp,
                    revocationDate: date, revocationReason: reason)
            } else if status.outcome != .revoked, let until = answers.compactMap(\.goodUntil).max() {
                status = RevocationStatus(outcome: .good, source: source, validUntil: until)
            } else if !answers.isEmpty, !answers.contains(.unknown), answers.allSatisfy({ $0.goodUntil == nil }) {
                let reasons = answers.compactMap(\.problem)
                let shown = reasons.prefix(3).joined(separator: "; ") + (reasons.count > 3 ? "; …" : "")
                findings.record(
                    TrustRules.ocspValidation, at: index,
                    note: "no valid OCSP response (\(reasons.count) refused: \(shown))")
            }
            if require, !status.isChecked {
                findings.record(
                    TrustRules.revocationRequired, at: index, note: "no valid answer that it is not revoked")
            }
            outcome.statuses[index] = status
        }
        return outcome
    }

    /// The CRL part of the check for `certificate` (at `index`, issued by `issuer`); adds the CRLs that validated
    /// to `usable`. An answer from a CRL among `files` has the source `crlFile`, else `crlFetched`.
    private mutating func checkCRLs(
        _ certificate: Certificate, at index: Int, issuer: Certificate, crls: [CertificateRevocationList],
        files: [CertificateRevocationList], date: Date,
        usable: inout [CertificateRevocationList], into findings: inout PathFindings
    ) throws(BackendError) -> RevocationStatus {
        let notChecked = RevocationStatus(outcome: .notChecked)
        let candidates = crls.filter { Self.names(issuer, asIssuerOf: $0) }
        guard !candidates.isEmpty else { return notChecked }
        var valid: [CertificateRevocationList] = []
        var reasons: [String] = []
        var onlyCRLNumber = true
        for crl in candidates {
            if let reason = try validate(crl, issuer: issuer, at: date) {
                // A CRL whose key identifier names another key, signed with an algorithm certkit verifies, that
                // this issuer's key does not verify belongs to another CA of the same name: not this issuer's
                // CRL at all. One whose signature certkit cannot even check is not understood: it counts.
                // (Only the signature decides: a CRL the issuer's key verifies is this issuer's CRL, and its other
                // faults — expired, not yet valid, no cRLSign — count.)
                if Self.namesAnotherKey(crl, issuer), Self.hasVerifiableSignatureAlgorithm(crl),
                   signatureFailed(crl, issuer: issuer) { continue }
                reasons.append(reason)
            } else if let reason = crlNumberProblem(crl) {
                reasons.append(reason)
                continue
            } else {
                valid.append(crl)
            }
            onlyCRLNumber = false
        }
        for crl in valid where !usable.contains(crl) { usable.append(crl) }
        if valid.isEmpty && reasons.isEmpty { return notChecked }  // every candidate was another CA's CRL
        if valid.isEmpty {
            let shown = reasons.prefix(3).joined(separator: "; ") + (reasons.count > 3 ? "; …" : "")
            findings.record(
                onlyCRLNumber ? TrustRules.crlNumber : TrustRules.crlValidation, at: index,
                note: "no valid CRL (\(reasons.count) refused: \(shown))")
            return notChecked
        }
        let source: RevocationSource = valid.contains { files.contains($0) } ? .crlFile : .crlFetched
        if let listing = valid.first(where: { $0.revokedSerialNumbers.contains(certificate.serialNumber) }) {
            findings.record(TrustRules.revocation, at: index, note: "listed on a valid CRL of its issuer")
            let entry = CRLParser.entry(of: certificate.serialNumber, in: listing.derEncoded)
            return RevocationStatus(
                outcome: .revoked, source: source,
                revocationDate: entry?.date, revocationReason: entry?.reason)
        }
        let nextUpdates = valid.map(\.nextUpdate)
        let until = nextUpdates.contains(nil) ? nil : nextUpdates.compactMap { $0 }.max()
        return RevocationStatus(outcome: .good, source: source, validUntil: until)
    }

    /// Under ``requireCRLNumber``, why `crl` (otherwise valid) is refused for its cRLNumber, or nil.
    private func crlNumberProblem(_ crl: CertificateRevocationList) -> String? {
        guard requireCRLNumber else { return nil }
        if !crl.hasCRLNumber { return "no cRLNumber (RFC 5280 §5.2.3)" }
        if crl.isCRLNumberCritical { return "cRLNumber is critical (RFC 5280 §5.2.3)" }
        return nil
    }

    /// True when `crl` names `issuer` (the same issuer name). The key identifier is only a hint: a CRL that the
    /// issuer's key verifies is the issuer's CRL whatever its authorityKeyIdentifier says, so a mismatched AKI can
    /// never hide a revocation.
    static func names(_ issuer: Certificate, asIssuerOf crl: CertificateRevocationList) -> Bool {
        crl.issuer.matches(issuer.subject)
    }

    /// True when `validate` found that `issuer`'s key does not verify `crl`'s signature.
    private func signatureFailed(_ crl: CertificateRevocationList, issuer: Certificate) -> Bool {
        guard let known = validations[Key(crl: crl, issuer: issuer)] else { return false }
        return known != nil
    }

    /// True when `crl`'s signature algorithm is one certkit verifies (allowlisted, not a broken digest, the same
    /// inside and outside the signed part).
    static func hasVerifiableSignatureAlgorithm(_ crl: CertificateRevocationList) -> Bool {
        guard crl.tbsSignatureAlgorithmMatches, let scheme = crl.signatureAlgorithm.scheme else { return false }
        return scheme.hash?.isBroken != true
    }

    /// True when the CRL's authorityKeyIdentifier and the issuer's subjectKeyIdentifier are both present and differ.
    static func namesAnotherKey(_ crl: CertificateRevocationList, _ issuer: Certificate) -> Bool {
        guard let aki = crl.authorityKeyIdentifier, let ski = issuer.extensions.subjectKeyIdentifier else { return false }
        return aki != ski
    }

    /// Nil when `crl` is valid for `issuer` at `date`, else why not.
    private mutating func validate(
        _ crl: CertificateRevocationList, issuer: Certificate, at date: Date
    ) throws(BackendError) -> String? {
        let key = Key(crl: crl, issuer: issuer)
        let signature: String?
        if let known = validations[key] {
            signature = known
        } else {
            signature = try verifySignature(of: crl, issuer: issuer)
            validations[key] = signature
        }
        if let signature { return signature }
        if let usage = issuer.extensions.keyUsage, !usage.contains(.cRLSign) { return "the issuer's keyUsage lacks cRLSign" }
        if date < RevocationClockSkew.earliestUse(ofAnswerIssuedAt: crl.thisUpdate) { return "thisUpdate is over five minutes after the verify date" }
        if let next = crl.nextUpdate, date > next { return "nextUpdate has passed" }
        if let oid = crl.unsupportedCriticalExtensions.first { return "unsupported critical extension \(oid)" }
        return nil
    }

    private func verifySignature(of crl: CertificateRevocationList, issuer: Certificate) throws(BackendError) -> String? {
        guard crl.tbsSignatureAlgorithmMatches else { return "the tbsCertList signature algorithm differs from the outer one" }
        guard let scheme = crl.signatureAlgorithm.scheme else { return crl.signatureAlgorithm.rejection ?? "algorithm not allowed" }
        if scheme.hash?.isBroken == true { return "signed with a broken digest (\(crl.signatureAlgorithm.name))" }
        let input = SignatureInput(
            scheme: scheme, signedBytes: crl.tbsBytes, signature: crl.signatureBytes, signerKey: issuer.publicKey)
        return try PathSignatureCheck.verify(input, backend: backend).map { "signature: \($0)" }
    }
}
