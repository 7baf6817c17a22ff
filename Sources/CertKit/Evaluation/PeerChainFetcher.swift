/// Why a TLS connection made only to capture the server's certificate chain failed.
///
/// Each case is a one-line, human-readable reason (``description``), e.g. `connection refused`.
public enum TLSConnectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server actively refused the TCP connection (nothing listens on the port).
    case refused
    /// The host name could not be resolved; the associated value is the resolver's reason.
    case unresolvable(String)
    /// Connecting or the handshake did not finish within the timeout.
    case timeout
    /// The peer answered, but not with TLS; the associated value says what was seen.
    case notTLS(String)
    /// The TLS handshake failed; the associated value is the TLS library's reason.
    case handshake(String)
    /// Any other network failure (unreachable network, reset, ...), with the system's reason.
    case network(String)
    /// The server sent a certificate certkit cannot decode; the associated values are its position
    /// (0 = the leaf) and the decoder's reason.
    case undecodableCertificate(index: Int, reason: String)

    public var description: String {
        switch self {
        case .refused: "connection refused"
        case .unresolvable(let reason): "name not resolvable: \(reason)"
        case .timeout: "timed out"
        case .notTLS(let reason): "the peer does not speak TLS (\(reason))"
        case .handshake(let reason): "TLS handshake failed: \(reason)"
        case .network(let reason): "connection failed: \(reason)"
        case .undecodableCertificate(let index, let reason):
            "the server's certificate \(index) cannot be decoded: \(reason)"
        }
    }
}

/// Connects to a TLS server and captures the certificate chain it presents, **without deciding trust**.
///
/// Implementations complete the handshake with the TLS library's own verification switched off and return the
/// certificates exactly as the server sent them (leaf first). The decision is then made by certkit's
/// ``TrustEvaluator`` (see ``ServerTrust``), so it is the same whichever TLS library did the handshake.
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
    /// Like ``fetchDER(host:port:serverName:timeout:)``, with the chain decoded into certificates.
    /// - Throws: what `fetchDER` throws, or ``TLSConnectError/undecodableCertificate(index:reason:)``.
    public func fetchChain(host: String, port: UInt16, serverName: String?, timeout: Duration) throws(TLSConnectError)
        -> [Certificate]
    {
        try Self.decodePresentedChain(fetchDER(host: host, port: port, serverName: serverName, timeout: timeout))
    }

    /// Decodes the DER certificates a TLS library captured, keeping the server's order.
    /// - Throws: ``TLSConnectError/undecodableCertificate(index:reason:)`` for the first one that does not decode,
    ///   or ``TLSConnectError/handshake(_:)`` when the server sent no certificate at all.
    public static func decodePresentedChain(_ chain: [[UInt8]]) throws(TLSConnectError) -> [Certificate] {
        guard !chain.isEmpty else { throw .handshake("the server sent no certificate") }
        var certificates: [Certificate] = []
        for (index, der) in chain.enumerated() {
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw .undecodableCertificate(index: index, reason: error.message)
            }
        }
        return certificates
    }
}
