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

    /// Captures the presented chain as DER (``fetchChain(host:port:serverName:timeout:identity:)`` decodes it),
    /// presenting `identity` when the server requests a client certificate.
    public func fetchDER(host: String, port: UInt16, serverName: String?, timeout: Duration, identity: Identity?)
        throws(TLSConnectError) -> [[UInt8]]
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
        let chain = session.peerChain()
        session.shutdown()
        return chain
    }
}
