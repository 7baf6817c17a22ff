import Foundation

/// How far a CRL's or an OCSP answer's thisUpdate may lie after the verify date and still be used.
///
/// The verifier's clock and the clock of a CA or responder that signs on demand differ, and a response fetched
/// during an evaluation is signed after the evaluation's verify date was taken: without an allowance, a fresh
/// answer from a responder a second ahead would be refused. OpenSSL's `ocsp` and `s_client` allow the same five
/// minutes (`OCSP_check_validity`'s default validity period). Only thisUpdate gets the allowance: an answer is
/// never used after its nextUpdate.
enum RevocationClockSkew {
    /// Five minutes.
    static let allowance: TimeInterval = 300

    /// The earliest verify date at which an answer issued at `thisUpdate` is used.
    static func earliestUse(ofAnswerIssuedAt thisUpdate: Date) -> Date {
        thisUpdate.addingTimeInterval(-allowance)
    }
}
