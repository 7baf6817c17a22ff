import Foundation

extension PresentedChain.DecodingFailure {
    /// The report of a presented chain that does not decode (``ServerTrust``, ``ClientTrust``): `otherError`, the
    /// certificates decoded before the failure, and the reason as the error and the one note.
    func report(policy: TrustPolicy, verifyDate: Date?) -> TrustReport {
        TrustReport(
            result: .otherError, chain: decoded, checks: decoded.map { _ in [] },
            error: TrustError(
                check: .backendError, certificateIndex: index, message: description, rule: TrustRules.backendError),
            backend: "certkit", policy: policy, verifyDate: verifyDate ?? Date(), pathsTried: 0, notes: [description])
    }
}
