@testable import CertKit
import Foundation

extension TrustBackend {
    /// What a backend contributes to one candidate path, without the core's policy rules: the signature of each
    /// link (verified by the library), revocation from the CRLs that validate, and the library's own verdict
    /// weighed on top (each library finding that nothing explains becomes its check). Backend tests use it to see
    /// what the library itself says about a path.
    func verify(
        _ path: CandidatePath, anchors: any PreparedAnchorStore, at date: Date, crls: [CertificateRevocationList]
    ) throws(BackendError) -> PathFindings {
        var findings = PathFindings(count: path.certificates.count)
        var signatures = PathSignatureCheck(backend: self)
        try signatures.check(path, into: &findings)
        var revocation = RevocationCheck(backend: self)
        let evaluation = TrustEvaluation(certificates: path.certificates, crls: crls)
        let usable = try revocation.check(path, evaluation: evaluation, at: date, into: &findings).usableCRLs
        findings.weigh(try libraryVerdict(on: path, anchors: anchors, at: date, crls: usable), from: name)
        return findings
    }
}
