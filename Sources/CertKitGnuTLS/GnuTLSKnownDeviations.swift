import CertKit

/// The two places where GnuTLS 3.7's path verifier is stricter than RFC 5280 on valid chains, and how certkit
/// recognises them so that its `SIGNER_CONSTRAINTS_FAILURE` is not recorded there (the core's own rule, which
/// follows the RFC, stands; both backends then give the same verdict):
/// - GnuTLS counts a self-issued intermediate against a pathLenConstraint above it (RFC 5280 §6.1.4 (l) does not);
/// - GnuTLS rejects every certificate below a CA with an excluded directoryName subtree (it does not implement
///   directoryName constraints; the core does, RFC 5280 §4.2.1.10).
/// Only these exact shapes are recognised; any other `SIGNER_CONSTRAINTS_FAILURE` is read as before.
enum GnuTLSKnownDeviations {
    /// True when the path has one of the two shapes.
    static func explainSignerConstraints(_ path: CandidatePath) -> Bool {
        countsSelfIssuedAgainstPathLength(path) || hasExcludedDirectoryName(path)
    }

    /// True when some CA's pathLenConstraint is exceeded only if self-issued intermediates below it are counted.
    static func countsSelfIssuedAgainstPathLength(_ path: CandidatePath) -> Bool {
        let certificates = path.certificates
        for caIndex in certificates.indices.dropFirst() {
            guard let limit = certificates[caIndex].extensions.basicConstraints?.pathLength else { continue }
            let below = certificates[1..<caIndex]
            let counted = below.count, rfc = below.filter { !$0.isSelfIssued }.count
            if counted > limit && rfc <= limit { return true }
        }
        return false
    }

    /// True when a CA of the path excludes a directoryName subtree.
    static func hasExcludedDirectoryName(_ path: CandidatePath) -> Bool {
        path.certificates.dropFirst().contains { certificate in
            certificate.extensions.nameConstraints?.excluded.contains {
                if case .directoryName = $0 { return true }
                return false
            } ?? false
        }
    }
}
