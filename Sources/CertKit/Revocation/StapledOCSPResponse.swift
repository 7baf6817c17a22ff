/// The OCSP response a TLS peer stapled, as the TLS library hands it over (DER, or nothing), for
/// ``ServerTrust`` and ``ClientTrust``. One that does not decode is no answer, never a positive one: the
/// evaluation goes on without it, and the report's notes say why it was not used.
struct StapledOCSPResponse {
    /// The decoded response, nil when none was stapled or it does not decode.
    let response: OCSPResponse?
    /// `the stapled OCSP response is not used: …` when it does not decode; empty otherwise.
    let notes: [String]

    init(der: [UInt8]?) {
        guard let der else {
            response = nil
            notes = []
            return
        }
        do {
            response = try OCSPResponse(derEncoded: der)
            notes = []
        } catch {
            response = nil
            notes = ["the stapled OCSP response is not used: \(error.message)"]
        }
    }
}
