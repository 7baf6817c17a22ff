/// One PEM block: its label and the decoded bytes.
package struct PEMBlock: Sendable, Hashable {
    /// The label between `-----BEGIN ` and `-----`, e.g. `CERTIFICATE`.
    package let label: String
    /// The base64-decoded contents.
    package let bytes: [UInt8]

    /// Creates a block.
    package init(label: String, bytes: [UInt8]) {
        self.label = label
        self.bytes = bytes
    }
}

/// PEM (RFC 7468) codec, tolerant when reading and strict when writing.
package enum PEM {
    /// Decodes every PEM block in `text`, ignoring text before, between and after blocks.
    /// Accepts any line width, CRLF, and spaces/tabs inside the base64.
    /// - Throws: ``CertificateDecodingError`` for a broken block, or of kind
    ///   ``CertificateDecodingError/Code/limitExceeded`` for more than ``Limits/maxPEMBlocks`` blocks or more
    ///   than ``Limits/maxInputBytes`` bytes.
    package static func decode(_ text: [UInt8], limits: Limits = .default) throws(CertificateDecodingError) -> [PEMBlock] {
        try PEMDecoder.decode(text, limits: limits)
    }

    /// Encodes bytes as one strict RFC 7468 block: 64 columns, LF line endings, trailing LF.
    package static func encode(_ bytes: [UInt8], label: String = "CERTIFICATE") -> String {
        PEMEncoder.encode(bytes, label: label)
    }
}
