@testable import CertKit
import Foundation

extension TrustBackend {
    /// What a backend contributes to one candidate path, without the core's policy rules: the signature of each
    /// link (verified by the library), revocation from the CRLs that validate, and the library's own verdict
    /// weighed on top as the audit mode weighs it (each fact that nothing explains becomes a LibraryVerdict).
    /// Backend tests use it to see what the library itself says about a path.
    func verify(
        _ path: CandidatePath, anchors: any PreparedAnchorStore, at date: Date, crls: [CertificateRevocationList]
    ) throws(BackendError) -> PathFindings {
        var findings = PathFindings(count: path.certificates.count)
        var signatures = PathSignatureCheck(backend: self)
        try signatures.check(path, into: &findings)
        var revocation = RevocationCheck(backend: self)
        let evaluation = TrustEvaluation(certificates: path.certificates, crls: crls)
        let usable = try revocation.check(path, evaluation: evaluation, at: date, into: &findings).usableCRLs
        let facts = try libraryVerdict(on: path, anchors: anchors, at: date, crls: usable)
            + LibraryVerdictInterpretation.digestFacts(of: path.certificates, backend: self)
        findings.weigh(facts, on: path.certificates, at: date, from: name)
        return findings
    }
}

extension PathFindings {
    /// Weighs `facts` as the audit mode does (`LibraryVerdictInterpretation.weigh`); `path` is needed only for the
    /// known deviations.
    mutating func weigh(
        _ facts: [LibraryFact], on path: [Certificate] = [], at date: Date = Date(timeIntervalSince1970: 0),
        from backend: String
    ) {
        LibraryVerdictInterpretation.weigh(facts, on: path, at: date, from: backend, into: &self)
    }
}
