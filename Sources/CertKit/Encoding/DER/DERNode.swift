/// One DER TLV inside the bytes a ``DERReader`` was lent: the tag, and where its header and contents lie.
///
/// Nodes never copy the input and never own it: `contents` is a view of the lent bytes, valid only inside
/// ``DERReader/read(_:_:)``; `contentBytes` and `encoded` are copies that may be kept.
struct DERNode {
    /// The identifier octet (class, constructed bit and tag number below 31).
    let tag: UInt8
    /// The first byte of the whole input the node lives in (offsets below count from it).
    let base: UnsafePointer<UInt8>
    /// Offset of the identifier octet.
    let start: Int
    /// Offset of the first content octet.
    let contentStart: Int
    /// Offset one past the last content octet.
    let end: Int
    /// Nesting depth of this node (0 for a top-level node).
    let depth: Int

    /// True for constructed encodings (bit 6 of the identifier).
    var isConstructed: Bool { tag & 0x20 != 0 }
    /// The content octets (a view of the lent bytes, indexed from 0).
    var contents: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base + contentStart, count: end &- contentStart) }
    /// The content octets as an array.
    var contentBytes: [UInt8] { Array(contents) }
    /// The complete encoding, header included (a view of the lent bytes, indexed from 0).
    var encodedView: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base + start, count: end &- start) }
    /// The complete encoding, header included, as an array.
    var encoded: [UInt8] { Array(encodedView) }
    /// The number of content octets.
    var contentLength: Int { end &- contentStart }
    /// The content octet at `offset` from the first (the caller checked `offset < contentLength`).
    func contentByte(_ offset: Int) -> UInt8 { base[contentStart &+ offset] }

    /// A reader over this node's contents, one level deeper. Fails if the node is primitive or too deep.
    func children() throws(CertificateDecodingError) -> DERReader {
        guard isConstructed else {
            throw CertificateDecodingError(.malformedDER, "expected a constructed element, found tag \(DERTag.describe(tag))")
        }
        return try DERReader(base: base, start: contentStart, end: end, depth: depth &+ 1)
    }

    /// A reader over this node's contents that parses them as DER, for primitive wrappers such as
    /// OCTET STRING and BIT STRING that hold an encoded value (`skip` octets are skipped first).
    func encapsulated(skip: Int = 0) throws(CertificateDecodingError) -> DERReader {
        guard skip <= contentLength else { throw DERReader.truncated }
        return try DERReader(base: base, start: contentStart &+ skip, end: end, depth: depth &+ 1)
    }
}
