public import CertKit
public import CertKitSockets

/// Captures a TLS server's certificate chain with GnuTLS (`gnutls_handshake` without certificate verification,
/// then `gnutls_certificate_get_peers`). GnuTLS does not decide trust here: evaluate the chain with
/// ``TrustEvaluator`` (or ``ServerTrust``).
public struct GnuTLSTLSClient: TLSChainFetcher {
    /// `gnutls`.
    public let name = "gnutls"

    /// Creates a client.
    public init() {}

    /// Captures the presented chain as DER (``fetchChain(host:port:serverName:timeout:identity:)`` decodes it) and
    /// the OCSP response the server stapled (asked for with status_request), presenting `identity` when the server
    /// requests a client certificate.
    public func capture(host: String, port: UInt16, serverName: String?, timeout: Duration, identity: Identity?)
        throws(TLSConnectError) -> TLSHandshakeCapture
    {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let credentials = try TLSCredentialsHandle(identity: identity)
        let socket = try TCPConnection.connect(host: host, port: port, deadline: deadline)
        let session = try TLSSessionHandle(
            credentials: credentials, socket: socket, serverName: serverName, presentsIdentity: identity != nil)
        do {
            try session.handshake(until: deadline)
        } catch {
            throw session.refusal(error)
        }
        try session.awaitClientCertificateVerdict(until: deadline)
        let capture = TLSHandshakeCapture(chain: session.peerChain(), stapledOCSPResponse: session.stapledOCSPResponse())
        session.shutdown()
        return capture
    }
}
