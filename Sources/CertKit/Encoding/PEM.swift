/// One PEM block: its label and the decoded bytes.
package struct PEMBlock: Sendable, Hashable {
    /// The label between `-----BEGIN ` and `-----`, e.g. `CERTIFICATE`.
    public let label: String
    /// The base64-decoded contents.
    public let bytes: [UInt8]

    /// Creates a block.
    public init(label: String, bytes: [UInt8]) {
        self.label = label
        self.bytes = bytes
    }
}

/// PEM (RFC 7468) codec, tolerant when reading and strict when writing.
package enum PEM {
    /// Decodes every PEM block in `text`, ignoring text before, between and after blocks.
    /// Accepts any line width, CRLF, and spaces/tabs inside the base64.
    public static func decode(_ text: [UInt8]) throws(CertificateDecodingError) -> [PEMBlock] {
        try PEMDecoder.decode(text)
    }

    /// Encodes bytes as one strict RFC 7468 block: 64 columns, LF line endings, trailing LF.
    public static func encode(_ bytes: [UInt8], label: String = "CERTIFICATE") -> String {
        PEMEncoder.encode(bytes, label: label)
    }
}
