import CertKitSockets
import Testing

/// TLSConnectError follows the package's error model: an extensible code, the library's words as detail, equality
/// and hashing by code alone; its one-line descriptions are what connect prints.
@Suite("TLSConnectError: codes, details, descriptions")
struct TLSConnectErrorTests {
    @Test("each failure has its own code and its one line")
    func codesAndDescriptions() {
        let cases: [(TLSConnectError, TLSConnectError.Code, String)] = [
            (.refused, .refused, "connection refused"),
            (.timeout, .timeout, "timed out"),
            (.unresolvable("no such host"), .unresolvable, "name not resolvable: no such host"),
            (.notTLS("HTTP/1.0 400"), .notTLS, "the peer does not speak TLS (HTTP/1.0 400)"),
            (.handshake("bad record mac"), .handshake, "TLS handshake failed: bad record mac"),
            (.clientCertificateRefused(presented: true, reason: "alert unknown_ca"), .clientCertificateRefused,
             "the server refused the client certificate (alert unknown_ca)"),
            (.clientCertificateRefused(presented: false, reason: "alert certificate_required"), .clientCertificateRequired,
             "the server requires a client certificate and none was presented (alert certificate_required)"),
            (.identity("key mismatch"), .identity, "cannot present the client identity: key mismatch"),
            (.network("reset"), .network, "connection failed: reset"),
        ]
        for (error, code, line) in cases {
            #expect(error.code == code, "\(error)")
            #expect(error.description == line)
        }
        #expect(Set(cases.map(\.1.description)).count == cases.count, "codes are distinct")
        let undecodable = TLSConnectError.undecodableCertificate(index: 2, reason: "truncated")
        #expect(undecodable.code == .undecodableCertificate && undecodable.certificateIndex == 2 && undecodable.detail == "truncated")
    }

    @Test("errors compare and hash by code: the words may differ between libraries")
    func comparesByCode() {
        #expect(TLSConnectError.handshake("one library's words") == .handshake("another's"))
        #expect(TLSConnectError.handshake("x") != .network("x"))
        #expect(Set([TLSConnectError.handshake("a"), .handshake("b")]).count == 1)
        #expect(TLSConnectError.clientCertificateRefused(presented: true, reason: "r")
            != .clientCertificateRefused(presented: false, reason: "r"))
    }
}
