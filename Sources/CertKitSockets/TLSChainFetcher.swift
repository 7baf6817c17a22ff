import CertKit

/// Connects to a TLS server and captures the certificate chain it presents, **without deciding trust**.
///
/// Implementations complete the handshake with the TLS library's own verification switched off and return the
/// certificates exactly as the server sent them (leaf first). The decision is then made by certkit's
/// `TrustEvaluator` (see `ServerTrust`), so it is the same whichever TLS library did the handshake.
/// `CertKitOpenSSL` provides `OpenSSLTLSClient`, `CertKitGnuTLS` provides `GnuTLSTLSClient`.
public protocol TLSChainFetcher: Sendable {
    /// The TLS library's name, e.g. `openssl`.
    var name: String { get }

    /// Connects to `host:port` (a DNS name or an IP literal), sends `serverName` as SNI when it is not nil, asks
    /// for a stapled OCSP response (status_request), completes the handshake and returns the DER encodings of the
    /// presented chain, leaf first, as the library gives them, and the stapled response if the server sent one.
    ///
    /// When the server asks for a client certificate, `identity` (its certificate, intermediates and key) is
    /// presented; with no identity the client answers with an empty certificate list. Only an alert from the
    /// server is a refusal (``TLSConnectError/clientCertificateRefused(presented:reason:)``, the alert named): in
    /// the handshake under TLS 1.2; under TLS 1.3, where the server judges the client certificate after the
    /// client's handshake has completed, as the first thing the server sends afterwards, which the client waits
    /// for (at most one second, within `timeout`). A session ticket, data, close_notify, a close without
    /// close_notify, a reset or silence is no refusal (``PostHandshakeSignal``).
    /// - Parameters:
    ///   - host: a DNS name or an IP literal.
    ///   - port: the TCP port.
    ///   - serverName: the SNI name to send, or nil for none.
    ///   - timeout: the bound on connecting and the handshake together.
    ///   - identity: the client identity to present when the server requests one, or nil.
    /// - Throws: a ``TLSConnectError`` saying why no chain was captured.
    func capture(host: String, port: UInt16, serverName: String?, timeout: Duration, identity: Identity?)
        throws(TLSConnectError) -> TLSHandshakeCapture
}

/// What one handshake captured: the presented chain (DER, leaf first) and the OCSP response the server stapled.
public struct TLSHandshakeCapture: Sendable, Hashable {
    /// The presented chain, leaf first, as the library gives it.
    public var chain: [[UInt8]]
    /// The stapled OCSP response (status_request), nil when the server sent none. Not validated here: give it to
    /// the evaluation (``TrustEvaluation/ocspResponses``) and the core validates it.
    public var stapledOCSPResponse: [UInt8]?
    /// The SignedCertificateTimestampList the server sent in its signed_certificate_timestamp extension (TLS
    /// encoding), nil when it sent none. Only the OpenSSL client asks for it (`SSL_enable_ct`, permissive); the GnuTLS
    /// client does not, and its captures have none. Not judged
    /// here: give it to ``TrustEvaluation/tlsSignedCertificateTimestamps``.
    public var signedCertificateTimestamps: [UInt8]? = nil

    /// Creates a capture.
    public init(chain: [[UInt8]], stapledOCSPResponse: [UInt8]?) {
        self.chain = chain
        self.stapledOCSPResponse = stapledOCSPResponse
    }

    /// The chain decoded as an evaluation takes it (server's order, leaf first): only the leaf must decode; a
    /// later certificate that does not is left out and listed (give the list to
    /// ``TrustEvaluation/skippedCertificates``, which reports it and counts it toward the pool's bound).
    /// - Throws: ``TLSConnectError/handshake(_:)`` when the server sent no certificate at all, or
    ///   ``TLSConnectError/undecodableCertificate(index:reason:)`` when the leaf does not decode.
    public func poolCertificates() throws(TLSConnectError) -> (certificates: [Certificate], skipped: [SkippedCertificate]) {
        guard !chain.isEmpty else { throw .handshake("the server sent no certificate") }
        do {
            return try PresentedChain.decodeSkipping(chain)
        } catch {
            throw .undecodableCertificate(index: error.index, reason: error.reason)
        }
    }

    /// The chain decoded into certificates (server's order, leaf first), every one of them.
    /// - Throws: ``TLSConnectError/handshake(_:)`` when the server sent no certificate at all, or
    ///   ``TLSConnectError/undecodableCertificate(index:reason:)`` for the first one that does not decode.
    public func certificates() throws(TLSConnectError) -> [Certificate] {
        guard !chain.isEmpty else { throw .handshake("the server sent no certificate") }
        do {
            return try PresentedChain.decode(chain)
        } catch {
            throw .undecodableCertificate(index: error.index, reason: error.reason)
        }
    }
}

extension TLSChainFetcher {
    /// The presented chain of ``capture(host:port:serverName:timeout:identity:)``, as DER.
    public func fetchDER(host: String, port: UInt16, serverName: String?, timeout: Duration, identity: Identity?)
        throws(TLSConnectError) -> [[UInt8]]
    {
        try capture(host: host, port: port, serverName: serverName, timeout: timeout, identity: identity).chain
    }

    /// ``fetchDER(host:port:serverName:timeout:identity:)`` without a client identity.
    public func fetchDER(host: String, port: UInt16, serverName: String?, timeout: Duration) throws(TLSConnectError)
        -> [[UInt8]]
    {
        try fetchDER(host: host, port: port, serverName: serverName, timeout: timeout, identity: nil)
    }

    /// Like ``fetchDER(host:port:serverName:timeout:identity:)``, with the chain decoded into certificates (server's order,
    /// leaf first).
    /// - Throws: what `fetchDER` throws, ``TLSConnectError/handshake(_:)`` when the server sent no certificate at
    ///   all, or ``TLSConnectError/undecodableCertificate(index:reason:)`` for the first one that does not decode.
    public func fetchChain(
        host: String, port: UInt16, serverName: String?, timeout: Duration, identity: Identity? = nil
    ) throws(TLSConnectError) -> [Certificate] {
        try capture(host: host, port: port, serverName: serverName, timeout: timeout, identity: identity).certificates()
    }
}
