public import CertKit
public import CertKitSockets

/// Captures a TLS server's certificate chain with OpenSSL (`SSL_connect` with `SSL_VERIFY_NONE`, then
/// `SSL_get_peer_cert_chain`). OpenSSL does not decide trust here: evaluate the chain with ``TrustEvaluator``
/// (or ``ServerTrust``).
///
/// ```swift
/// let chain = try OpenSSLTLSClient().fetchChain(host: "localhost", port: 4433, serverName: "localhost", timeout: .seconds(5))
/// let report = ServerTrust(evaluator: TrustEvaluator(backend: OpenSSLBackend()), anchors: roots)
///     .evaluate(presentedChain: chain, host: "localhost")
/// ```
public struct OpenSSLTLSClient: TLSChainFetcher {
    /// `openssl`.
    public let name = "openssl"

    /// Creates a client.
    public init() {}

    /// Captures the presented chain as DER (``fetchChain(host:port:serverName:timeout:identity:)`` decodes it) and
    /// the OCSP response the server stapled (asked for with status_request), presenting `identity` when the server
    /// requests a client certificate.
    public func capture(host: String, port: UInt16, serverName: String?, timeout: Duration, identity: Identity?)
        throws(TLSConnectError) -> TLSHandshakeCapture
    {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let context = try TLSContextHandle(identity: identity)
        let socket = try TCPConnection.connect(host: host, port: port, deadline: deadline)
        let session = try TLSSessionHandle(
            context: context, socket: socket, serverName: serverName, presentsIdentity: identity != nil)
        // OpenSSL writes with write(2): a server that reset the connection must not end the process with SIGPIPE.
        return try BrokenPipeGuard.run { () throws(TLSConnectError) in
            do throws(TLSConnectError) {
                try session.handshake(until: deadline)
            } catch {
                throw session.refusal(error)
            }
            try session.awaitClientCertificateVerdict(until: deadline)
            var capture = TLSHandshakeCapture(
                chain: session.peerChain(), stapledOCSPResponse: session.stapledOCSPResponse())
            capture.signedCertificateTimestamps = session.signedCertificateTimestamps()
            session.shutdown()
            return capture
        }
    }
}
