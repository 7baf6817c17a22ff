import CertKit

/// Why a TLS connection made only to capture the server's certificate chain failed: at the TCP level (refused,
/// unresolvable, timeout, network), in the TLS handshake, or in decoding what the server presented.
///
/// One line, human-readable (``description``), e.g. `connection refused`. Errors compare and hash by ``code``.
public struct TLSConnectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. Codes may be added in later versions: compare with `==` and give a `switch` a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: String, Sendable {
            case refused, unresolvable, timeout, notTLS, handshake, clientCertificateRefused, clientCertificateRequired
            case identity, network, undecodableCertificate
        }

        fileprivate let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The server actively refused the TCP connection (nothing listens on the port).
        public static let refused = Code(.refused)
        /// The host name could not be resolved; ``TLSConnectError/detail`` is the resolver's reason.
        public static let unresolvable = Code(.unresolvable)
        /// Connecting or the handshake did not finish within the timeout.
        public static let timeout = Code(.timeout)
        /// The peer answered, but not with TLS; ``TLSConnectError/detail`` says what was seen.
        public static let notTLS = Code(.notTLS)
        /// The TLS handshake failed; ``TLSConnectError/detail`` is the TLS library's reason.
        public static let handshake = Code(.handshake)
        /// The server refused the client certificate presented: an alert during the handshake (TLS 1.2) or as the
        /// first thing the server sent after it (TLS 1.3). ``TLSConnectError/detail`` names the alert by its
        /// registered name, alike for both TLS libraries (`the server sent alert unknown_ca`).
        public static let clientCertificateRefused = Code(.clientCertificateRefused)
        /// The server requires a client certificate and none was presented; ``TLSConnectError/detail`` names the
        /// alert.
        public static let clientCertificateRequired = Code(.clientCertificateRequired)
        /// The client identity could not be used by the TLS library; ``TLSConnectError/detail`` is its reason.
        public static let identity = Code(.identity)
        /// Any other network failure (unreachable network, reset, ...); ``TLSConnectError/detail`` is the system's
        /// reason.
        public static let network = Code(.network)
        /// The server sent a certificate certkit cannot decode, at ``TLSConnectError/certificateIndex`` (0 = the
        /// leaf); ``TLSConnectError/detail`` is the decoder's reason.
        public static let undecodableCertificate = Code(.undecodableCertificate)

        /// The code's stable name (`refused`, ...).
        public var description: String { backing.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The resolver's, the system's, the TLS library's or the decoder's words, where the code has them; empty
    /// otherwise.
    public let detail: String
    /// For ``Code/undecodableCertificate``: the position of the certificate in what the server sent (0 = the leaf).
    public let certificateIndex: Int?

    /// Creates an error.
    package init(_ code: Code, _ detail: String = "", certificateIndex: Int? = nil) {
        self.code = code
        self.detail = detail
        self.certificateIndex = certificateIndex
    }

    package static let refused = TLSConnectError(.refused)
    package static let timeout = TLSConnectError(.timeout)
    package static func unresolvable(_ reason: String) -> Self { Self(.unresolvable, reason) }
    package static func notTLS(_ reason: String) -> Self { Self(.notTLS, reason) }
    package static func handshake(_ reason: String) -> Self { Self(.handshake, reason) }
    package static func identity(_ reason: String) -> Self { Self(.identity, reason) }
    package static func network(_ reason: String) -> Self { Self(.network, reason) }
    /// The server refused the client certificate (`presented`), or required one and got none.
    package static func clientCertificateRefused(presented: Bool, reason: String) -> Self {
        Self(presented ? .clientCertificateRefused : .clientCertificateRequired, reason)
    }
    package static func undecodableCertificate(index: Int, reason: String) -> Self {
        Self(.undecodableCertificate, reason, certificateIndex: index)
    }

    /// Errors are equal when their codes are: the words may differ between libraries and systems.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The reason as one line.
    public var description: String {
        switch code.backing {
        case .refused: "connection refused"
        case .unresolvable: "name not resolvable: \(detail)"
        case .timeout: "timed out"
        case .notTLS: "the peer does not speak TLS (\(detail))"
        case .handshake: "TLS handshake failed: \(detail)"
        case .clientCertificateRefused: "the server refused the client certificate (\(detail))"
        case .clientCertificateRequired: "the server requires a client certificate and none was presented (\(detail))"
        case .identity: "cannot present the client identity: \(detail)"
        case .network: "connection failed: \(detail)"
        case .undecodableCertificate: PresentedChain.DecodingFailure.message(index: certificateIndex ?? 0, reason: detail)
        }
    }
}
