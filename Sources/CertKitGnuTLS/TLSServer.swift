import CertKit
package import CertKitSockets

/// A loopback TLS server on GnuTLS that requires a client certificate and lets certkit decide on it (package
/// access: the `ClientTrustServer` sample and its tests). GnuTLS's own verification of the client's chain is
/// replaced by a verification function (`gnutls_session_set_verify_function`) that hands the presented chain, leaf
/// first, to the ``ClientCertificateDecision`` — typically ``ClientTrust`` — and a refusal ends the handshake with
/// a bad_certificate alert. The credentials carry no trust anchors: GnuTLS itself trusts nothing here.
package final class GnuTLSClientCertificateServer: ClientCertificateServer {
    private let credentials: TLSCredentialsHandle
    package let decision: ClientCertificateDecision

    /// Serves with `identity` (the server's certificate, chain and key); `decide` judges each client's chain.
    package init(identity: Identity, decide: @escaping ([[UInt8]]) -> Bool) throws(TLSConnectError) {
        credentials = try TLSCredentialsHandle(identity: identity)
        decision = ClientCertificateDecision(decide: decide)
    }

    package func serve(_ socket: TCPConnection, until deadline: ContinuousClock.Instant, reply: [UInt8])
        throws(TLSConnectError)
    {
        let session = try TLSSessionHandle(serving: credentials, socket: socket, decision: decision)
        try session.handshake(until: deadline)
        // The client may already have gone (it has its verdict); that does not undo the handshake.
        try? session.write(reply, until: deadline)
        session.shutdown()
    }
}
