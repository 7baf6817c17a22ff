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

    /// Connects to `host:port` (a DNS name or an IP literal), sends `serverName` as SNI when it is not nil,
    /// completes the handshake and returns the DER encodings of the presented chain, leaf first, as the
    /// library gives them.
    /// - Parameters:
    ///   - host: a DNS name or an IP literal.
    ///   - port: the TCP port.
    ///   - serverName: the SNI name to send, or nil for none.
    ///   - timeout: the bound on connecting and the handshake together.
    /// - Throws: a ``TLSConnectError`` saying why no chain was captured.
    func fetchDER(host: String, port: UInt16, serverName: String?, timeout: Duration) throws(TLSConnectError)
        -> [[UInt8]]
}

extension TLSChainFetcher {
    /// Like ``fetchDER(host:port:serverName:timeout:)``, with the chain decoded into certificates (server's order,
    /// leaf first).
    /// - Throws: what `fetchDER` throws, ``TLSConnectError/handshake(_:)`` when the server sent no certificate at
    ///   all, or ``TLSConnectError/undecodableCertificate(index:reason:)`` for the first one that does not decode.
    public func fetchChain(host: String, port: UInt16, serverName: String?, timeout: Duration) throws(TLSConnectError)
        -> [Certificate]
    {
        let chain = try fetchDER(host: host, port: port, serverName: serverName, timeout: timeout)
        guard !chain.isEmpty else { throw .handshake("the server sent no certificate") }
        do {
            return try PresentedChain.decode(chain)
        } catch {
            throw .undecodableCertificate(index: error.index, reason: error.reason)
        }
    }
}
