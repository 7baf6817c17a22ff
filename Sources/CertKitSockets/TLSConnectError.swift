import CertKit

/// Why a TLS connection made only to capture the server's certificate chain failed: at the TCP level (refused,
/// unresolvable, timeout, network), in the TLS handshake, or in decoding what the server presented.
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
    /// The server refused the client certificate, or required one and got none (`presented` says which): an
    /// alert during the handshake (TLS 1.2) or as the first thing the server sent after it (TLS 1.3). The reason
    /// names the alert by its registered name, alike for both TLS libraries (`the server sent alert unknown_ca`).
    case clientCertificateRefused(presented: Bool, reason: String)
    /// The client identity could not be used by the TLS library (the library's reason).
    case identity(String)
    /// Any other network failure (unreachable network, reset, ...), with the system's reason.
    case network(String)
    /// The server sent a certificate certkit cannot decode; the associated values are its position
    /// (0 = the leaf) and the decoder's reason.
    case undecodableCertificate(index: Int, reason: String)

    /// The reason as one line.
    public var description: String {
        switch self {
        case .refused: "connection refused"
        case .unresolvable(let reason): "name not resolvable: \(reason)"
        case .timeout: "timed out"
        case .notTLS(let reason): "the peer does not speak TLS (\(reason))"
        case .handshake(let reason): "TLS handshake failed: \(reason)"
        case .clientCertificateRefused(true, let reason): "the server refused the client certificate (\(reason))"
        case .clientCertificateRefused(false, let reason):
            "the server requires a client certificate and none was presented (\(reason))"
        case .identity(let reason): "cannot present the client identity: \(reason)"
        case .network(let reason): "connection failed: \(reason)"
        case .undecodableCertificate(let index, let reason):
            PresentedChain.DecodingFailure.message(index: index, reason: reason)
        }
    }
}

