@testable import CertKitSockets
import Testing

/// The rule both TLS clients apply to what a TLS 1.3 server sends first after a handshake in which it requested a
/// client certificate (end to end against real servers: `ConnectClientVerdictTests` in the CLI tests).
@Suite("TLS 1.3 client-certificate verdict: only an alert refuses")
struct PostHandshakeSignalTests {
    @Test("only an alert is a refusal, named by its registered name")
    func onlyAnAlertRefuses() {
        let none: [PostHandshakeSignal] = [
            .sessionTicket, .applicationData, .closeNotify, .closedWithoutCloseNotify, .reset, .silence,
        ]
        for signal in none {
            #expect(signal.refusal(presented: true) == nil, "\(signal)")
        }
        #expect(PostHandshakeSignal.alert(48).refusal(presented: true)
            == .clientCertificateRefused(presented: true, reason: "the server sent alert unknown_ca"))
        #expect(PostHandshakeSignal.alert(116).refusal(presented: false)?.description
            == "the server requires a client certificate and none was presented (the server sent alert certificate_required)")
        #expect(PostHandshakeSignal.alert(201).refusal(presented: true)?.description
            == "the server refused the client certificate (the server sent alert 201)")
    }

    @Test("the first post-handshake message wins; handshake alerts and tickets are kept apart")
    func firstMessageWins() {
        var signals = TLSReceivedSignals()
        signals.receivedSessionTicket()
        signals.receivedAlert(90, fatal: false)
        signals.receivedAlert(40, fatal: true)
        signals.receivedAlert(42, fatal: true)
        #expect(signals.first == nil)
        #expect(signals.handshakeAlert == 40)

        signals.handshakeComplete = true
        signals.receivedSessionTicket()
        signals.receivedAlert(48, fatal: true)
        signals.record(.closedWithoutCloseNotify)
        #expect(signals.first == .sessionTicket)

        var closing = TLSReceivedSignals()
        closing.handshakeComplete = true
        closing.receivedAlert(0, fatal: false)
        closing.receivedAlert(48, fatal: false)
        #expect(closing.first == .closeNotify)
        #expect(closing.handshakeAlert == nil)
    }

    @Test("after the handshake, every alert but close_notify is a refusal: user_canceled, warning level included")
    func userCanceledIsAnAlert() {
        var canceled = TLSReceivedSignals()
        canceled.handshakeComplete = true
        canceled.receivedAlert(90, fatal: false)
        #expect(canceled.first == .alert(90))
        #expect(canceled.first?.refusal(presented: true)?.description
            == "the server refused the client certificate (the server sent alert user_canceled)")
    }
}
