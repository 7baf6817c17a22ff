import Foundation

/// The one owner of what a library's own verdict means (the audit mode, ``TrustEvaluator/Configuration/libraryAudit``).
///
/// Backends report neutral facts (``LibraryFact``); this file alone decides, for each:
/// - which core checks explain it (``explanation(of:)``): when the core already failed one of them — on the
///   certificate the fact names, or anywhere on the path for a fact about the whole path — the fact adds nothing;
/// - which known deviations of a library from RFC 5280 explain it (``KnownDeviation``): then it adds nothing either,
///   so both backends give the same verdict;
/// - anything else — an unexplained refusal, a status the backend has no name for, a library failure — is a failure
///   of its own check, `LibraryVerdict` (rule `certkit.library-verdict`), with the library's words. Never a core
///   check the core did not fail: fail closed, without relabelling.
enum LibraryVerdictInterpretation {
    /// Where a fact's explanation is looked for.
    enum Scope: Equatable {
        /// On the certificate the fact names (anywhere when it names none).
        case named
        /// On the certificate below the one named (the signature its key makes).
        case issuedByNamed
        /// Anywhere on the path.
        case path
        /// Nothing to explain: the status is no refusal for certkit.
        case noRefusal
    }

    /// The core checks that explain `status`, and where they are looked for.
    static func explanation(of status: LibraryFact.Status) -> (checks: Set<TrustCheck>, scope: Scope) {
        switch status {
        case .expired, .notYetValid: ([.temporalValidity], .named)
        case .signatureFailure: ([.signature, .weakSignature], .named)
        case .issuerKeyUnusable: ([.signature, .weakSignature], .issuedByNamed)
        case .notACA: ([.basicConstraints, .basicConstraintsCA, .keyUsage], .named)
        case .pathLengthExceeded: ([.basicConstraintsPathLen], .path)
        case .keyUsageNoCertSign: ([.keyUsage], .named)
        case .invalidExtension: ([.duplicateExtension, .malformedExtension], .named)
        // GnuTLS refuses to import a duplicate extension, or a certificate whose two signature algorithms differ
        // (which the core refuses as that certificate's Signature).
        case .importRefused: ([.duplicateExtension, .malformedExtension, .signature], .named)
        case .unhandledCriticalExtension: ([.criticalExtensions], .named)
        case .nameConstraintViolation: ([.nameConstraints], .path)
        case .signerConstraints: ([.basicConstraintsPathLen, .keyUsage, .nameConstraints], .path)
        case .revoked: ([.revocation], .named)
        case .chainTooLong: ([.chainLength], .path)
        case .noIssuer: ([.missingIntermediate, .anchorTrusted, .signature], .path)
        case .crlRefused: ([.revocationResponseRequired, .revocation], .named)
        case .noCRL: ([], .noRefusal)
        case .keyTooSmall: ([.keySize, .weakKeySize], .named)
        case .explicitECParameters: ([.keySize], .named)
        case .digestTooWeak: ([.signatureHashAlgorithms, .weakSignature], .named)
        case .insecureAlgorithm: ([.weakSignature, .weakKeySize, .signatureHashAlgorithms, .keySize], .path)
        case .bareInvalid: ([.signature, .weakSignature], .path)
        // Nothing in the core explains these: a chain other than the path, a feature never asked for, the library
        // failing, a status nobody named. They are LibraryVerdict failures whatever else failed.
        case .otherChain, .notRequested, .libraryFailure, .unknown: ([], .path)
        }
    }

    /// A documented place where a library departs from RFC 5280 on a chain the RFC (and the core) accepts. Each is
    /// recognised only in its exact shape, for its exact status; anything else is judged as usual.
    enum KnownDeviation: String, CaseIterable {
        /// GnuTLS 3.7 counts self-issued intermediates against a pathLenConstraint (RFC 5280 §6.1.4 (l) does not).
        case countsSelfIssuedAgainstPathLength
        /// GnuTLS 3.7 does not implement directoryName constraints: a CA excluding one fails every chain below it.
        case excludedDirectoryName
        /// GnuTLS 3.7 applies the permitted and excluded dNSName subtrees to the leaf's subject CN, whatever it
        /// looks like, when the leaf has no dNSName subjectAltName (no SAN, or IP addresses or emails only):
        /// RFC 5280 §4.2.1.10 applies dNSName constraints to dNSNames, and the CN is not one. Recognised only when
        /// the CN, read as a dNSName, really falls outside a permitted or inside an excluded DNS subtree.
        case commonNameUnderDNSConstraints
        /// OpenSSL 3.0 compares a dNSName with one trailing dot (`www.example.com.`) byte for byte with the DNS
        /// subtrees, so it falls outside every permitted one; the apple profile reads it as the same host, as
        /// trustd does (the rfc5280 and webpki profiles refuse it as no valid name under a constraint). Recognised
        /// only when each such name, without its dot, is allowed by every CA's constraints.
        case trailingDotDNSNameUnderConstraints
        /// GnuTLS 3.7 refuses the chain below a CA that excludes an x400Address or ediPartyName subtree, as a
        /// signer-constraints failure or as "no issuer found" (a constraint on a name form the leaf does not have
        /// constrains nothing, RFC 5280 §4.2.1.10).
        case excludedUnsupportedNameForm
        /// OpenSSL 3.0 counts a certificate as expired at the very second of its notAfter (RFC 5280 §4.1.2.5: the
        /// validity period includes notAfter).
        case expiredAtNotAfter
        /// OpenSSL 3.0 wants the anchor to assert cA when it does not take it for self-signed (a v1 root whose own
        /// signature algorithm it cannot check): an anchor is trusted as given, its name and key (RFC 5280
        /// §6.1.1 (d)), and one without basicConstraints (a v1 root) is no CA certificate to judge.
        case anchorWithoutBasicConstraints

        /// True when this deviation explains `fact` on `path` at `date`.
        func explains(_ fact: LibraryFact, on path: [Certificate], at date: Date) -> Bool {
            switch self {
            case .countsSelfIssuedAgainstPathLength:
                return fact.status == .signerConstraints && path.indices.dropFirst().contains { index in
                    PathLength.isExceeded(at: index, in: path, countingSelfIssued: true)
                        && !PathLength.isExceeded(at: index, in: path)
                }
            case .excludedDirectoryName:
                return fact.status == .signerConstraints && Self.someCAExcludes(path) {
                    if case .directoryName = $0 { return true }
                    return false
                }
            case .commonNameUnderDNSConstraints:
                guard fact.status == .signerConstraints, let leaf = path.first, let commonName = leaf.subject.commonName,
                      !(leaf.extensions.subjectAlternativeNames ?? []).contains(where: {
                          if case .dnsName = $0 { return true } else { return false }
                      })
                else { return false }
                return Self.someCAConstrains(path, forms: { if case .dnsName = $0 { true } else { false } }) {
                    !NameConstraintsChecker.isAllowed(.dnsName(commonName), by: $0)
                }
            case .trailingDotDNSNameUnderConstraints:
                guard fact.status == .nameConstraintViolation else { return false }
                let dotted = path.dropLast().flatMap { certificate in
                    (certificate.extensions.subjectAlternativeNames ?? []).compactMap { name -> String? in
                        if case .dnsName(let host) = name, host.hasSuffix("."), !host.hasSuffix("..") { return host }
                        return nil
                    }
                }
                guard !dotted.isEmpty else { return false }
                return !path.dropFirst().contains { ca in
                    guard let constraints = ca.extensions.nameConstraints else { return false }
                    return dotted.contains { !NameConstraintsChecker.isAllowed(.dnsName(String($0.dropLast())), by: constraints) }
                }
            case .excludedUnsupportedNameForm:
                return (fact.status == .noIssuer || fact.status == .signerConstraints) && Self.someCAExcludes(path) {
                    if case .other(let tag, _) = $0 { return tag == 3 || tag == 5 }  // x400Address, ediPartyName
                    return false
                }
            case .anchorWithoutBasicConstraints:
                guard fact.status == .notACA, let index = fact.index, index == path.count - 1 else { return false }
                return path[index].extensions.basicConstraints == nil
            case .expiredAtNotAfter:
                guard fact.status == .expired, let index = fact.index, path.indices.contains(index) else { return false }
                return path[index].notAfter.timeIntervalSince1970 == date.timeIntervalSince1970.rounded(.down)
            }
        }

        /// True when a CA of `path` has a permitted or excluded subtree of `forms` and its constraints make
        /// `violated` true.
        private static func someCAConstrains(
            _ path: [Certificate], forms: (GeneralName) -> Bool, violated: (NameConstraints) -> Bool
        ) -> Bool {
            path.dropFirst().contains { ca in
                guard let constraints = ca.extensions.nameConstraints,
                      constraints.permitted.contains(where: forms) || constraints.excluded.contains(where: forms)
                else { return false }
                return violated(constraints)
            }
        }

        private static func someCAExcludes(_ path: [Certificate], _ form: (GeneralName) -> Bool) -> Bool {
            path.dropFirst().contains { $0.extensions.nameConstraints?.excluded.contains(where: form) ?? false }
        }
    }

    /// A fact made by the core from the library's digest reading (``TrustBackend/librarySignatureDigest(of:)``):
    /// the library reads another digest than the allowlist for the certificate at `index`.
    static func digestFacts(of path: [Certificate], backend: any TrustBackend) -> [LibraryFact] {
        path.indices.dropLast().compactMap { index in
            guard let expected = path[index].signatureAlgorithm.scheme?.hash,
                  case .digest(let read) = backend.librarySignatureDigest(of: path[index]), read != expected
            else { return nil }
            return LibraryFact(
                .signatureFailure, index: index,
                words: "reads the signature digest as \(read.rawValue), the allowlist as \(expected.rawValue)")
        }
    }

    /// Records `LibraryVerdict` in `findings` (the core's findings on `path`, every policy's merged) for each fact
    /// that neither a failed core check nor a known deviation explains, on the certificate it names (the leaf when
    /// it names none), with the library's words.
    static func weigh(
        _ facts: [LibraryFact], on path: [Certificate], at date: Date, from backend: String,
        into findings: inout PathFindings
    ) {
        let core = findings.checks
        guard !core.isEmpty else { return }
        for fact in facts {
            let (checks, scope) = explanation(of: fact.status)
            if scope == .noRefusal { continue }
            let named = fact.index.map { min(max($0, 0), core.count - 1) }
            let place = scope == .issuedByNamed ? named.map { max($0 - 1, 0) } : named
            let explained: Bool = if scope != .path, let place {
                !core[place].isDisjoint(with: checks)
            } else {
                core.contains { !$0.isDisjoint(with: checks) }
            }
            if explained { continue }
            if KnownDeviation.allCases.contains(where: { $0.explains(fact, on: path, at: date) }) { continue }
            findings.record(
                TrustRules.libraryVerdict, at: place ?? 0,
                note: "\(backend): \(fact.words) [\(fact.status.rawValue)]")
        }
    }

    /// The library's words for the `LibraryVerdict` failures on certificate `index` (every certificate, each
    /// prefixed `[index] `, when nil), from an attempt's notes.
    static func reasons(in notes: [String], at index: Int? = nil) -> [String] {
        let marker = "] LibraryVerdict (\(TrustRules.libraryVerdict.id)): "
        return notes.compactMap { note in
            guard let range = note.range(of: marker) else { return nil }
            guard let index else { return note[..<range.lowerBound] + "] " + note[range.upperBound...] }
            return note.hasPrefix("[\(index)] ") ? String(note[range.upperBound...]) : nil
        }
    }
}
