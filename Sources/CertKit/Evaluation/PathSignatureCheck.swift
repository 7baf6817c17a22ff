/// The signatures along a candidate path (Docs/Architecture.md, "One owner per rule"): the core decides whether a signature *may* verify —
/// the tbsCertificate's algorithm equals the outer one, the algorithm is on the allowlist with valid parameters,
/// the signer's key type fits it, the library reads the same digest — and the backend verifies it with the
/// issuer's key. A link is good only when the library positively says so; anything else records `Signature` on
/// the certificate whose signature it is (the path is then discarded).
///
/// A signature over a broken digest (MD2/MD4/MD5) is not verified: ``AlgorithmStrengthCheck`` makes the
/// certificate a fatal `WeakSignature` whatever its signature, so forged and genuine ones get the same verdict.
/// Likewise a signature by a key the core refuses (``PublicKeyInfo/encodingProblem``: malformed, or beyond the key
/// bounds of ``Limits``, such as a 16,384-bit RSA modulus with a 16,383-bit exponent) is never handed to the
/// library: `PublicKeyUsabilityCheck` makes the signer a fatal `WeakKeySize` wherever it is in the path, so no
/// library spends work on it and both backends give the same verdict. The same holds for a signer key on a curve one
/// of the libraries lacks (secp256k1, Brainpool: `certkit.key-algorithm`, fatal in every profile).
struct PathSignatureCheck {
    let backend: any TrustBackend
    /// Links verified by earlier evaluations of the same evaluator (nil: none kept).
    let verified: VerifiedSignatureCache?
    /// The prepared anchors of the evaluation: a link signed by the anchor a path ends at is verified through them
    /// (the backend may keep anchor keys with the store).
    let anchors: (any PreparedAnchorStore)?
    /// Verdicts already reached in this evaluation, by (certificate, signer key): paths share links
    /// (``LinkVerdicts``).
    private var verdicts = LinkVerdicts()

    /// A link: the signed certificate (hashed by its DER, once per certificate) and the signer's SPKI DER (hashed
    /// in one pass: an `[UInt8]` field would be hashed byte by byte, on every lookup).
    private struct Link: Hashable {
        var certificate: Certificate
        var signerKey: EncodingKey
    }

    /// The verdict of each link judged so far. The first few are kept in a list searched in order: most
    /// evaluations judge two or three links, and comparing a link (the same certificate and key objects, as a rule)
    /// costs less than hashing it and growing a table. Past ``listLimit`` links a table takes over, so a pool that
    /// makes many paths pays one lookup per link.
    private struct LinkVerdicts {
        private var list: [(link: Link, failure: String?)] = []
        private var table: [Link: String?] = [:]
        static let listLimit = 8

        /// The verdict recorded for `link` (nil inside: it verified), or nil when it was not judged.
        func verdict(of link: Link) -> String?? {
            if table.isEmpty { return list.first { $0.link == link }.map(\.failure) }
            return table[link]
        }

        mutating func record(_ failure: String?, for link: Link) {
            if table.isEmpty, list.count < Self.listLimit {
                list.append((link, failure))
                return
            }
            if table.isEmpty {
                for known in list { table[known.link] = known.failure }
                list = []
            }
            table[link] = failure
        }
    }

    init(
        backend: any TrustBackend, verified: VerifiedSignatureCache? = nil,
        anchors: (any PreparedAnchorStore)? = nil
    ) {
        self.backend = backend
        self.verified = verified
        self.anchors = anchors
    }

    /// Records `Signature` on every certificate of `path` whose signature by the next certificate fails.
    mutating func check(_ path: CandidatePath, into findings: inout PathFindings) throws(BackendError) {
        let certificates = path.certificates
        for index in certificates.indices.dropLast() {
            let certificate = certificates[index]
            if certificate.signatureAlgorithm.hash?.isBroken == true { continue }
            // A refused signer key is a fatal key problem of its own: nothing it signed is verified.
            if certificates[index + 1].publicKey.encodingProblem != nil { continue }
            // So is a signer key one of the libraries cannot verify (certkit.key-algorithm, fatal in every profile):
            // handed over, one backend would verify the link and the other drop the path as missing its issuer.
            if !PublicKeyUsabilityCheck.isVerifiableKeyAlgorithm(certificates[index + 1].publicKey.algorithm) { continue }
            let link = Link(certificate: certificate, signerKey: EncodingKey(certificates[index + 1].publicKey.derEncoded))
            let failure: String?
            if let known = verdicts.verdict(of: link) {
                failure = known
            } else {
                let signedByAnchor = path.endsAtAnchor && index + 2 == certificates.count
                failure = try judgeOnce(certificate, signer: certificates[index + 1], signerIsAnchor: signedByAnchor)
                verdicts.record(failure, for: link)
            }
            if let failure { findings.record(TrustRules.signature, at: index, note: failure) }
        }
    }

    /// ``judge(_:signer:)``, unless the evaluator's cache says this exact link verified before; a link that
    /// verifies now is remembered there.
    private func judgeOnce(
        _ certificate: Certificate, signer: Certificate, signerIsAnchor: Bool
    ) throws(BackendError) -> String? {
        let cached = verified?.link(certificate, signedBy: signer)
        if let cached, verified?.isVerified(cached) == true { return nil }
        let failure = try judge(certificate, signer: signer, signerIsAnchor: signerIsAnchor)
        if failure == nil, let cached { verified?.recordVerified(cached) }
        return failure
    }

    /// Nil when `certificate`'s signature verifies with `signer`'s key, else why not.
    private func judge(
        _ certificate: Certificate, signer: Certificate, signerIsAnchor: Bool
    ) throws(BackendError) -> String? {
        guard certificate.tbsSignatureAlgorithmMatches else {
            return "the tbsCertificate signature algorithm differs from the outer signatureAlgorithm"
        }
        let algorithm = certificate.signatureAlgorithm
        guard let scheme = algorithm.scheme else { return algorithm.rejection ?? "signature algorithm not allowed" }
        return try Self.verify(
            SignatureInput(
                scheme: scheme, signedBytes: certificate.tbsCertificateBytes, signature: certificate.signatureBytes,
                signerKey: signer.publicKey),
            backend: backend, anchor: signerIsAnchor ? anchors.map { (signer, $0) } : nil)
    }

    /// Nil when `input` verifies: its key fits the scheme, its signature value is one canonical encoding
    /// (``SignatureValueEncoding``), and the library verifies it. Shared with CRL and OCSP validation. (The library's
    /// own reading of a certificate's digest is compared in the audit mode, `LibraryVerdictInterpretation`.)
    static func verify(
        _ input: SignatureInput, backend: any TrustBackend,
        anchor: (certificate: Certificate, store: any PreparedAnchorStore)? = nil
    ) throws(BackendError) -> String? {
        if let problem = input.signerKey.encodingProblem { return "the signer's key is refused: \(problem)" }
        guard PublicKeyUsabilityCheck.isVerifiableKeyAlgorithm(input.signerKey.algorithm) else {
            return "the signer's key (\(input.signerKey.algorithm)) is not one both libraries verify"
        }
        guard input.scheme.accepts(input.signerKey.algorithm) else {
            return "\(input.scheme) cannot be made with a \(input.signerKey.algorithm) key"
        }
        if let problem = PSSKeyParameters.mismatch(key: input.signerKey, scheme: input.scheme) { return problem }
        if let problem = SignatureValueEncoding.problem(input.signature, scheme: input.scheme, key: input.signerKey) {
            return problem
        }
        let verdict = if let anchor {
            try backend.verifySignature(input, signedBy: anchor.certificate, in: anchor.store)
        } else {
            try backend.verifySignature(input)
        }
        switch verdict {
        case .valid: return nil
        case .invalid(let reason): return "\(backend.name): \(reason)"
        }
    }
}
