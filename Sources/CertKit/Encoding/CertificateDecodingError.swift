/// Why bytes could not be decoded as certificates. `description` is one line, suitable after `certkit: <file>: `.
/// Errors compare by ``code``, not by message.
public struct CertificateDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A broad category, stable for scripts and tests.
    /// Codes may be added in later versions: compare with `==` and give a `switch` a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Sendable {
            case empty, malformedDER, malformedPEM, noCertificate, invalidCertificate, unsupportedFormat, limitExceeded
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The input is empty or only whitespace.
        public static let empty = Code(.empty)
        /// The DER is malformed (bad tag, bad length, truncated, trailing data, too deep).
        public static let malformedDER = Code(.malformedDER)
        /// The PEM text is malformed (bad base64, missing END line, ...).
        public static let malformedPEM = Code(.malformedPEM)
        /// The input decodes, but holds no certificate (for example only a private key).
        public static let noCertificate = Code(.noCertificate)
        /// The ASN.1 is well-formed but is not a valid X.509 certificate.
        public static let invalidCertificate = Code(.invalidCertificate)
        /// The input is in a format certkit does not read.
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// The input exceeds one of the bounds of ``Limits`` (too large, too many blocks, certificates,
        /// attributes, extensions or CRL entries); the message names the bound.
        public static let limitExceeded = Code(.limitExceeded)

        /// The code's stable name (`empty`, ...), as the command line's JSON writes it.
        public var description: String { backing.rawValue }
    }

    /// The category.
    public var code: Code
    /// A one-line human description of the problem.
    public var message: String

    /// Creates an error. The message is kept to one short line: anything quoted from the input (labels, OIDs)
    /// is clipped, and the whole message is at most ``maximumMessageLength`` characters.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = MessageText.line(message, limit: Self.maximumMessageLength)
    }

    /// The longest message kept; longer ones end in `…`.
    public static let maximumMessageLength = 300

    public var description: String { message }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
