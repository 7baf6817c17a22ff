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
        case .network(let reason): "connection failed: \(reason)"
        case .undecodableCertificate(let index, let reason):
            PresentedChain.DecodingFailure.message(index: index, reason: reason)
        }
    }
}

