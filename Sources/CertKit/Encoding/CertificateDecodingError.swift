/// Why bytes could not be decoded as certificates. `description` is one line, suitable after `certkit: <file>: `.
/// Errors compare by ``kind`` (their code), not by message.
public struct CertificateDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A broad category, stable for scripts and tests.
    public enum Kind: String, Sendable, Equatable {
        /// The input is empty or only whitespace.
        case empty
        /// The DER is malformed (bad tag, bad length, truncated, trailing data, too deep).
        case malformedDER
        /// The PEM text is malformed (bad base64, missing END line, ...).
        case malformedPEM
        /// The input decodes, but holds no certificate (for example only a private key).
        case noCertificate
        /// The ASN.1 is well-formed but is not a valid X.509 certificate.
        case invalidCertificate
        /// The input is in a format certkit does not read.
        case unsupportedFormat
        /// The input exceeds one of the bounds of ``Limits`` (too large, too many blocks, certificates,
        /// attributes, extensions or CRL entries); the message names the bound.
        case limitExceeded
    }

    /// The category.
    public var kind: Kind
    /// A one-line human description of the problem.
    public var message: String

    /// Creates an error. The message is kept to one short line: anything quoted from the input (labels, OIDs)
    /// is clipped, and the whole message is at most ``maximumMessageLength`` characters.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = MessageText.line(message, limit: Self.maximumMessageLength)
    }

    /// The longest message kept; longer ones end in `…`.
    public static let maximumMessageLength = 300

    public var description: String { message }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
