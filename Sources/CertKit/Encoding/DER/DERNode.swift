/// One DER TLV inside a shared byte buffer: the tag, and where its header and contents lie.
///
/// Nodes never copy the input; `contents` and `encoded` are slices of the buffer the reader was given.
struct DERNode: Sendable {
    /// The identifier octet (class, constructed bit and tag number below 31).
    let tag: UInt8
    /// The whole input buffer the node lives in.
    let buffer: [UInt8]
    /// Index of the identifier octet.
    let start: Int
    /// Index of the first content octet.
    let contentStart: Int
    /// Index one past the last content octet.
    let end: Int
    /// Nesting depth of this node (0 for a top-level node).
    let depth: Int

    /// True for constructed encodings (bit 6 of the identifier).
    var isConstructed: Bool { tag & 0x20 != 0 }
    /// The content octets.
    var contents: ArraySlice<UInt8> { buffer[contentStart..<end] }
    /// The content octets as an array.
    var contentBytes: [UInt8] { Array(contents) }
    /// The complete encoding, header included (the buffer itself, not a copy, when the node spans all of it).
    var encoded: [UInt8] { start == 0 && end == buffer.count ? buffer : Array(buffer[start..<end]) }
    /// The complete encoding as a slice of the buffer (no copy; indices are the buffer's).
    var encodedSlice: ArraySlice<UInt8> { buffer[start..<end] }
    /// The number of content octets.
    var contentLength: Int { end &- contentStart }

    /// A reader over this node's contents, one level deeper. Fails if the node is primitive or too deep.
    func children() throws(CertificateDecodingError) -> DERReader {
        guard isConstructed else {
            throw CertificateDecodingError(.malformedDER, "expected a constructed element, found tag \(DERTag.describe(tag))")
        }
        return try DERReader(buffer: buffer, start: contentStart, end: end, depth: depth &+ 1)
    }

    /// A reader over this node's contents that parses them as DER, for primitive wrappers such as
    /// OCTET STRING and BIT STRING that hold an encoded value (`skip` octets are skipped first).
    func encapsulated(skip: Int = 0) throws(CertificateDecodingError) -> DERReader {
        guard skip <= contentLength else { throw DERReader.truncated }
        return try DERReader(buffer: buffer, start: contentStart &+ skip, end: end, depth: depth &+ 1)
    }
}
