import Foundation

/// Certificate Transparency for TLS server leaves under the apple and webpki profiles (``CTPolicy``): gathers the
/// leaf's SCTs (embedded, delivered by TLS, in OCSP answers about it), judges each against the log list (known
/// log, signature verified by the backend, timestamp not in the future, log state and temporal interval), then
/// counts the valid ones as the profile's policy says. A leaf that does not comply gets
/// `SystemTrustedCTRequired` (recoverable). Enforced only with a log list no older than the policy allows, for a
/// leaf issued on or after the policy's date whose path ends at a system root (never an anchor the app
/// supplied or the user's trust settings make one).
struct CertificateTransparencyCheck {
    let evaluation: TrustEvaluation
    let backend: any TrustBackend
    let date: Date
    let limits: Limits
    /// The SCTs judged for the last path (they do not depend on the policy).
    private var judged: (path: [Certificate], scts: [SCTStatus], problems: [String])?

    init(evaluation: TrustEvaluation, backend: any TrustBackend, date: Date, limits: Limits) {
        self.evaluation = evaluation
        self.backend = backend
        self.date = date
        self.limits = limits
    }

    /// True when `policy` may be held to a CT policy at all (a log list is given, TLS server, a profile with one).
    func concerns(_ policy: TrustPolicy) -> Bool {
        evaluation.certificateTransparencyLogList != nil && policy.sslServer == true && CTPolicy.of(policy.profile) != nil
    }

    /// The status of `path`'s leaf under `policy` (nil when ``concerns(_:)`` is false); records
    /// `SystemTrustedCTRequired` on the leaf into `findings` when it does not comply.
    /// `endsAtSystemAnchor`: the path ends at a system root that neither the app nor the settings supplied.
    mutating func check(
        _ path: CandidatePath, policy: TrustPolicy, endsAtSystemAnchor: Bool, into findings: inout PathFindings
    ) throws(BackendError) -> CertificateTransparencyStatus? {
        guard let list = evaluation.certificateTransparencyLogList, policy.sslServer == true,
              let ct = CTPolicy.of(policy.profile), let leaf = path.certificates.first else { return nil }
        func notEnforced(_ why: String) -> CertificateTransparencyStatus {
            CertificateTransparencyStatus(compliant: nil, note: "not enforced: \(why)", scts: [])
        }
        let age = date.timeIntervalSince(list.timestamp)
        if age > TimeInterval(ct.maxListAgeDays) * 86_400 {
            return notEnforced(
                "the log list is \(Int(age / 86_400)) days old; profile \(policy.profile.rawValue) enforces one at most \(ct.maxListAgeDays) days old")
        }
        guard path.endsAtAnchor else { return notEnforced("the path does not end at an anchor") }
        guard path.certificates.count > 1 else { return notEnforced("the leaf is itself the anchor") }
        guard endsAtSystemAnchor else {
            return notEnforced("the path ends at an anchor the app or the trust settings supplied, not a system root")
        }
        guard leaf.notBefore >= ct.enforcedFrom else {
            return notEnforced("the leaf was issued before \(ISO8601Text.day(ct.enforcedFrom))")
        }
        if judged?.path != path.certificates {
            let (scts, problems) = try judge(path.certificates, list: list)
            judged = (path.certificates, scts, problems)
        }
        let scts = judged!.scts
        let problems = judged!.problems.isEmpty ? "" : " (" + judged!.problems.joined(separator: "; ") + ")"
        if let way = ct.satisfiedAlternative(by: scts, lifetime: leaf.notAfter.timeIntervalSince(leaf.notBefore)) {
            return CertificateTransparencyStatus(compliant: true, note: "compliant: \(way) SCTs\(problems)", scts: scts)
        }
        let valid = scts.filter(\.isValid)
        let note = "\(valid.count) valid SCT\(valid.count == 1 ? "" : "s") of \(scts.count), from \(Set(valid.map(\.logID)).count) logs of \(Set(valid.compactMap(\.operatorName)).count) operators, do not meet the policy of profile \(policy.profile.rawValue)\(problems)"
        findings.record(ct.rule, at: 0, note: note)
        return CertificateTransparencyStatus(compliant: false, note: "not compliant: \(note)", scts: scts)
    }

    /// Every SCT of the leaf of `path`, judged; and the lists that did not parse.
    private func judge(_ path: [Certificate], list: CTLogList) throws(BackendError) -> ([SCTStatus], [String]) {
        let leaf = path[0]
        let issuer = path.count > 1 ? path[1] : nil
        var statuses: [SCTStatus] = []
        var problems: [String] = []
        // Embedded: signed over the precertificate (the TBSCertificate without the extension) and the issuer's key.
        var embedded: [SignedCertificateTimestamp] = []
        var precertificate: [UInt8] = []
        do throws(CertificateDecodingError) {
            if let (extnValue, tbs) = try SCTSignedData.precertificateTBS(of: leaf) {
                precertificate = tbs
                embedded = try SCTListParser.parseExtensionValue(extnValue, limits: limits)
            }
        } catch {
            problems.append("embedded SCT list: \(error.message)")
        }
        if !embedded.isEmpty {
            let issuerKeyHash = try issuer.map { issuer throws(BackendError) in
                try backend.digest(.sha256, of: issuer.publicKey.derEncoded)
            }
            for sct in embedded {
                let signed = issuerKeyHash.map { SCTSignedData.precertEntry(sct, issuerKeyHash: $0, tbs: precertificate) }
                statuses.append(try status(of: sct, source: .embedded, signed: signed, leaf: leaf, list: list))
            }
        }
        // TLS and OCSP: signed over the certificate itself.
        var delivered: [(SCTSource, [UInt8], String)] = evaluation.tlsSignedCertificateTimestamps.enumerated().map {
            (.tls, $0.element, "TLS SCT list \($0.offset + 1)")
        }
        if let issuer {
            for response in evaluation.ocspResponses + evaluation.fetchedOCSPResponses {
                for answer in response.basic?.responses ?? [] {
                    guard let extnValue = answer.signedCertificateTimestamps,
                          try answer.certID.names(leaf, issuedBy: issuer, backend: backend) else { continue }
                    delivered.append((.ocsp, extnValue, "OCSP SCT list"))
                }
            }
        }
        for (source, bytes, name) in delivered {
            let scts: [SignedCertificateTimestamp]
            do throws(CertificateDecodingError) {
                scts = source == .tls
                    ? try SCTListParser.parse(bytes, limits: limits)
                    : try SCTListParser.parseExtensionValue(bytes, limits: limits)
            } catch {
                problems.append("\(name): \(error.message)")
                continue
            }
            for sct in scts {
                let signed = SCTSignedData.x509Entry(sct, certificateDER: leaf.derEncoded)
                statuses.append(try status(of: sct, source: source, signed: signed, leaf: leaf, list: list))
            }
        }
        return (statuses, problems)
    }

    /// One SCT judged. `signed`: the bytes its log signed (nil: the issuer needed for them is not in the path).
    private func status(
        of sct: SignedCertificateTimestamp, source: SCTSource, signed: [UInt8]?, leaf: Certificate, list: CTLogList
    ) throws(BackendError) -> SCTStatus {
        let log = list.log(id: sct.logID)
        var status = SCTStatus(
            source: source, logDescription: log?.description, operatorName: log?.operatorName, timestamp: sct.date,
            problem: nil, logID: sct.logID, approval: nil, isRFC6962: log?.isRFC6962 ?? false)
        status.problem = try problem(of: sct, log: log, signed: signed, leaf: leaf)
        if status.problem == nil, let log {
            status.approval = log.state == .retired ? .onceOrCurrent : .current
        }
        return status
    }

    /// Why `sct` does not count, nil when it does.
    private func problem(
        of sct: SignedCertificateTimestamp, log: CTLog?, signed: [UInt8]?, leaf: Certificate
    ) throws(BackendError) -> String? {
        guard sct.version == 0 else { return "SCT version \(sct.version) is not understood" }
        guard let log else { return "the log is not in the log list" }
        guard try backend.digest(.sha256, of: log.key.derEncoded) == log.logID else {
            return "the list's log id is not the SHA-256 of the log's key"
        }
        guard let scheme = sct.scheme else {
            return "hash \(sct.hashAlgorithm) with signature \(sct.signatureAlgorithm) is not SHA-256 with ECDSA or RSA"
        }
        guard let signed else { return "the leaf's issuer, whose key an embedded SCT signs over, is not in the path" }
        let input = SignatureInput(scheme: scheme, signedBytes: signed, signature: sct.signature, signerKey: log.key)
        if let failure = try PathSignatureCheck.verify(input, backend: backend) {
            return "the signature does not verify: \(failure)"
        }
        if sct.date > date { return "the timestamp is in the future" }
        switch log.state {
        case .qualified?, .usable?, .readonly?:
            break
        case .retired?:
            if let retired = log.stateTimestamp, sct.date >= retired {
                return "the log retired on \(ISO8601Text.timestamp(retired)), before the SCT"
            }
        case .pending?, .rejected?, nil:
            return "the log is \(log.state?.rawValue ?? "without a state") in the list"
        }
        if let interval = log.temporalInterval, !interval.contains(leaf.notAfter) {
            return "the leaf's notAfter is outside the log's temporal interval"
        }
        return nil
    }

    /// The instants at which a CT verdict of `evaluation` may change with the verify date: the log list's
    /// staleness for each profile and each SCT's timestamp (a future SCT does not count).
    static func dateBoundaries(of evaluation: TrustEvaluation, limits: Limits) -> [Date] {
        guard let list = evaluation.certificateTransparencyLogList else { return [] }
        var boundaries = [CTPolicy.apple, CTPolicy.chrome].map {
            list.timestamp.addingTimeInterval(TimeInterval($0.maxListAgeDays) * 86_400)
        }
        var lists = evaluation.tlsSignedCertificateTimestamps.compactMap { try? SCTListParser.parse($0, limits: limits) }
        if let leaf = evaluation.certificates.first, let (extnValue, _) = (try? SCTSignedData.precertificateTBS(of: leaf)) ?? nil {
            lists.append((try? SCTListParser.parseExtensionValue(extnValue, limits: limits)) ?? [])
        }
        for response in evaluation.ocspResponses + evaluation.fetchedOCSPResponses {
            for answer in response.basic?.responses ?? [] {
                guard let value = answer.signedCertificateTimestamps else { continue }
                lists.append((try? SCTListParser.parseExtensionValue(value, limits: limits)) ?? [])
            }
        }
        for sct in lists.joined() { boundaries.append(sct.date) }
        return boundaries
    }
}
