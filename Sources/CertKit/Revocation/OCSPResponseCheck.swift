import Foundation

/// OCSP response validation (RFC 6960 §3.2, §4.2.2.2), decided in the core for every backend.
///
/// A response answers for a certificate when one of its SingleResponses' certID names it (serial number, and the
/// SHA-1 or SHA-256 of its issuer's name and key, hashed by the backend). The answer is used only when the
/// response is `successful`, signed with an allowlisted algorithm by the issuer itself or by a delegated
/// responder — a certificate the response carries, issued and signed by the issuer, with the OCSPSigning EKU, not
/// a CA certificate, without an unknown critical, repeated or malformed extension, valid at the verify date — named by the responderID (the first certificate it names); with no critical extension certkit does not implement;
/// and thisUpdate − ``RevocationClockSkew/allowance`` ≤ date ≤ nextUpdate (an answer without nextUpdate holds for ``lifetimeWithoutNextUpdate``
/// after thisUpdate).
struct OCSPResponseCheck {
    /// How long an answer without nextUpdate holds after its thisUpdate.
    static let lifetimeWithoutNextUpdate: TimeInterval = 24 * 3600

    /// One response's answer about one certificate.
    enum Answer: Hashable {
        /// Not revoked, until the date given.
        case good(until: Date)
        /// Revoked, at the date given, for the reason given (a CRLReason value) when the response gives one.
        case revoked(at: Date, reason: Int?)
        /// The responder does not know the certificate: no answer.
        case unknown
        /// The response names the certificate but does not validate, for the reason given.
        case invalid(String)
    }

    let backend: any TrustBackend

    /// The answers of `responses` about `certificate`, issued by `issuer`, at `date`; responses that do not name
    /// it give none.
    func answers(
        about certificate: Certificate, issuedBy issuer: Certificate, in responses: [OCSPResponse], at date: Date
    ) throws(BackendError) -> [Answer] {
        var answers: [Answer] = []
        for response in responses {
            guard let basic = response.basic else { continue }
            var matching: [OCSPSingleResponse] = []
            for single in basic.responses where try single.certID.names(certificate, issuedBy: issuer, backend: backend) {
                matching.append(single)
            }
            guard !matching.isEmpty else { continue }
            if let problem = try signerProblem(basic, issuer: issuer, at: date) {
                answers.append(.invalid(problem))
                continue
            }
            if let oid = basic.unsupportedCriticalExtensions.first {
                answers.append(.invalid("unsupported critical extension \(oid)"))
                continue
            }
            answers += matching.map { Self.answer($0, at: date) }
        }
        return answers
    }

    /// The answer of one SingleResponse whose response validated.
    static func answer(_ single: OCSPSingleResponse, at date: Date) -> Answer {
        if let oid = single.unsupportedCriticalExtensions.first { return .invalid("unsupported critical extension \(oid)") }
        if date < RevocationClockSkew.earliestUse(ofAnswerIssuedAt: single.thisUpdate) {
            return .invalid("thisUpdate is over five minutes after the verify date")
        }
        let until = single.nextUpdate ?? single.thisUpdate.addingTimeInterval(lifetimeWithoutNextUpdate)
        if date > until {
            return .invalid(single.nextUpdate == nil ? "no nextUpdate and thisUpdate is over a day old" : "nextUpdate has passed")
        }
        switch single.status {
        case .good: return .good(until: until)
        case .revoked(let date): return .revoked(at: date, reason: single.revocationReason)
        case .unknown: return .unknown
        }
    }

    /// Nil when `basic` is signed by `issuer` or by a responder `issuer` delegated, else why not.
    private func signerProblem(_ basic: BasicOCSPResponse, issuer: Certificate, at date: Date) throws(BackendError) -> String? {
        guard basic.signatureIsWholeOctets else { return "the signature has unused bits" }
        let algorithm = basic.signatureAlgorithm
        guard let scheme = algorithm.scheme else { return algorithm.rejection ?? "algorithm not allowed" }
        if scheme.hash?.isBroken == true { return "signed with a broken digest (\(algorithm.name))" }
        func verify(with key: PublicKeyInfo) throws(BackendError) -> String? {
            let input = SignatureInput(scheme: scheme, signedBytes: basic.tbsBytes, signature: basic.signatureBytes, signerKey: key)
            return try PathSignatureCheck.verify(input, backend: backend).map { "signature: \($0)" }
        }
        if try names(basic.responderID, issuer) { return try verify(with: issuer.publicKey) }
        // Only the first certificate the responderID names is the responder: trying every look-alike would cost
        // two signature verifications each.
        for responder in basic.certificates where try names(basic.responderID, responder) {
            if let problem = try delegationProblem(responder, issuer: issuer, at: date) { return problem }
            return try verify(with: responder.publicKey)
        }
        return "signed by neither the issuer nor a responder certificate the response carries"
    }

    /// True when `id` names `certificate` (its subject, or the SHA-1 of its key's bits).
    private func names(_ id: OCSPResponderID, _ certificate: Certificate) throws(BackendError) -> Bool {
        switch id {
        case .byName(let name): return name.matches(certificate.subject)
        case .byKeyHash(let hash):
            guard let bits = OCSPResponseParser.subjectPublicKeyBits(certificate.publicKey) else { return false }
            return try backend.digest(.sha1, of: bits) == hash
        }
    }

    /// Nil when `responder` is a delegated responder of `issuer` at `date` (RFC 6960 §4.2.2.2), else why not.
    private func delegationProblem(_ responder: Certificate, issuer: Certificate, at date: Date) throws(BackendError) -> String? {
        guard responder.issuer.matches(issuer.subject) else { return "the responder certificate is not issued by the issuer" }
        guard responder.extensions.extendedKeyUsage?.contains(ExtendedKeyUsageOID.ocspSigning) == true else {
            return "the responder certificate lacks the OCSPSigning extended key usage"
        }
        // A CA certificate is never a delegated responder (as mozilla::pkix): a sub-CA whose EKU happens to list
        // OCSPSigning would otherwise answer for every sibling its issuer certified.
        guard responder.extensions.basicConstraints?.isCA != true else {
            return "the responder certificate is a CA certificate"
        }
        // Like any certificate relied upon (RFC 5280 §4.2): nothing critical certkit does not implement.
        let extensions = responder.extensions
        guard extensions.unknownCritical.isEmpty, extensions.duplicates.isEmpty, extensions.malformed.isEmpty else {
            return "the responder certificate has an unknown critical, repeated or malformed extension"
        }
        guard responder.notBefore <= date, date <= responder.notAfter else {
            return "the responder certificate is not valid at the verify date"
        }
        guard responder.tbsSignatureAlgorithmMatches, let scheme = responder.signatureAlgorithm.scheme,
              scheme.hash?.isBroken != true else {
            return "the responder certificate's signature algorithm is not allowed"
        }
        let input = SignatureInput(
            scheme: scheme, signedBytes: responder.tbsCertificateBytes, signature: responder.signatureBytes,
            signerKey: issuer.publicKey)
        return try PathSignatureCheck.verify(input, backend: backend)
            .map { "the responder certificate's signature: \($0)" }
    }
}

extension OCSPResponseCheck.Answer {
    /// The end of a `good` answer's validity, else nil.
    var goodUntil: Date? {
        if case .good(let until) = self { return until }
        return nil
    }

    /// True for a `revoked` answer.
    var isRevoked: Bool {
        if case .revoked = self { return true }
        return false
    }

    /// Why an `invalid` answer was refused, else nil.
    var problem: String? {
        if case .invalid(let reason) = self { return reason }
        return nil
    }
}
