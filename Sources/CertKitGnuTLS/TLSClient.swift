import CertKit
internal import CertKitSockets

/// Captures a TLS server's certificate chain with GnuTLS (`gnutls_handshake` without certificate verification,
/// then `gnutls_certificate_get_peers`). GnuTLS does not decide trust here: evaluate the chain with
/// ``TrustEvaluator`` (or ``ServerTrust``).
public struct GnuTLSTLSClient: TLSChainFetcher {
    /// `gnutls`.
    public let name = "gnutls"

    /// Creates a client.
    public init() {}

    public func fetchChain(host: String, port: UInt16, serverName: String?, timeout: Duration) throws(TLSConnectError)
        -> [Certificate]
    {
        try Self.decodePresentedChain(fetchDER(host: host, port: port, serverName: serverName, timeout: timeout))
    }

    /// Like ``fetchChain(host:port:serverName:timeout:)`` but returns the DER encodings as GnuTLS gives them.
    public func fetchDER(host: String, port: UInt16, serverName: String?, timeout: Duration) throws(TLSConnectError)
        -> [[UInt8]]
    {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let credentials = try TLSCredentialsHandle()
        let socket = try TLSSocket.connect(host: host, port: port, deadline: deadline)
        let session = try TLSSessionHandle(credentials: credentials, socket: socket, serverName: serverName)
        try session.handshake(until: deadline)
        let chain = session.peerChain()
        session.shutdown()
        return chain
    }
}
