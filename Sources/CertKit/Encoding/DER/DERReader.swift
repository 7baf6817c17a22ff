/// A strict DER reader over bytes the caller keeps alive: definite, minimally encoded lengths only, every access
/// bounds-checked, nesting bounded by ``maximumDepth``, low-tag-number identifiers only.
///
/// It reads the TLVs at one level; ``DERNode/children()`` descends. Nothing here traps on any input.
///
/// Readers and nodes point into the bytes without owning them (no reference counting per element): they exist
/// only inside ``read(_:_:)``, which lends the bytes for the duration of the parse; nothing that holds a node or a
/// reader may outlive that call (every parser returns values: arrays, strings, numbers, never nodes).
struct DERReader {
    /// The deepest nesting accepted (a certificate needs about 10).
    static let maximumDepth = 32
    /// The largest length accepted (lengths are encoded in at most 4 octets).
    static let maximumLength = 0x7FFF_FFFF

    static let truncated = CertificateDecodingError(.malformedDER, "truncated DER: an element extends past the end of its container")

    /// The first byte of the whole input (nil only for an empty input, where nothing is ever read).
    private let base: UnsafePointer<UInt8>?
    private(set) var position: Int
    private let end: Int
    private let depth: Int

    /// Runs `body` with a reader over all of `bytes` at depth 0; the reader and every node it gives are valid only
    /// inside `body`.
    static func read<Result>(
        _ bytes: [UInt8], _ body: (inout DERReader) throws(CertificateDecodingError) -> Result
    ) throws(CertificateDecodingError) -> Result {
        try bytes.withUnsafeBufferPointer { (buffer) throws(CertificateDecodingError) -> Result in
            var reader = DERReader(base: buffer.baseAddress, position: 0, end: buffer.count, depth: 0)
            return try body(&reader)
        }
    }

    private init(base: UnsafePointer<UInt8>?, position: Int, end: Int, depth: Int) {
        self.base = base
        self.position = position
        self.end = end
        self.depth = depth
    }

    /// A reader over `base[start..<end]` at `depth` (a node's contents: the node checked the bounds).
    init(base: UnsafePointer<UInt8>, start: Int, end: Int, depth: Int) throws(CertificateDecodingError) {
        guard depth <= DERReader.maximumDepth else {
            throw CertificateDecodingError(.malformedDER, "DER nested deeper than \(DERReader.maximumDepth) levels")
        }
        guard start >= 0, start <= end else { throw DERReader.truncated }
        self.init(base: base, position: start, end: end, depth: depth)
    }

    /// The element at `range` of the lent bytes, read again (a range an earlier read of the same bytes gave).
    func node(at range: Range<Int>) throws(CertificateDecodingError) -> DERNode {
        guard let base, range.lowerBound >= 0, range.upperBound <= end else { throw DERReader.truncated }
        var inner = try DERReader(base: base, start: range.lowerBound, end: range.upperBound, depth: depth)
        guard let node = try inner.next(), inner.isAtEnd else { throw DERReader.truncated }
        return node
    }

    /// True when every element at this level has been read.
    var isAtEnd: Bool { position >= end }
    /// The number of unread octets at this level.
    var remaining: Int { end &- position }
    /// The identifier octet of the next element, without consuming it.
    var peekTag: UInt8? {
        guard position < end, let base else { return nil }
        return base[position]
    }

    /// Reads the next element, or returns nil at the end of this level.
    mutating func next() throws(CertificateDecodingError) -> DERNode? {
        guard position < end, let base else { return nil }
        let start = position
        var index = position
        let tag = base[index]
        guard tag & 0x1F != 0x1F else {
            throw CertificateDecodingError(.malformedDER, "unsupported multi-byte DER tag at offset \(start)")
        }
        index &+= 1
        guard index < end else { throw DERReader.truncated }
        let first = base[index]
        index &+= 1
        var length: Int
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            throw CertificateDecodingError(.malformedDER, "indefinite length (BER) at offset \(start) is not allowed in DER")
        } else {
            let count = Int(first & 0x7F)
            guard count <= 4 else {
                throw CertificateDecodingError(.malformedDER, "length field of \(count) octets at offset \(start) is too long")
            }
            guard count <= end &- index else { throw DERReader.truncated }
            guard base[index] != 0 else {
                throw CertificateDecodingError(.malformedDER, "non-minimal length encoding (leading zero) at offset \(start)")
            }
            length = 0
            for _ in 0..<count {
                length = (length << 8) | Int(base[index])
                index &+= 1
            }
            guard length >= 0x80 else {
                throw CertificateDecodingError(.malformedDER, "non-minimal length encoding (long form for \(length)) at offset \(start)")
            }
            guard length <= DERReader.maximumLength else { throw DERReader.truncated }
        }
        guard length <= end &- index else { throw DERReader.truncated }
        position = index &+ length
        return DERNode(tag: tag, base: base, start: start, contentStart: index, end: position, depth: depth)
    }

    /// Reads the next element and requires its tag to be `tag`.
    mutating func read(_ tag: UInt8, _ what: @autoclosure () -> String) throws(CertificateDecodingError) -> DERNode {
        guard let node = try next() else {
            throw CertificateDecodingError(.malformedDER, "missing \(what())")
        }
        guard node.tag == tag else {
            throw CertificateDecodingError(.malformedDER, "\(what()): expected \(DERTag.describe(tag)), found \(DERTag.describe(node.tag))")
        }
        return node
    }

    /// Reads the next element, requires an OBJECT IDENTIFIER that ``DERNode/objectIdentifier()`` accepts, and
    /// returns its node without making its text.
    mutating func readObjectIdentifier(_ what: @autoclosure () -> String) throws(CertificateDecodingError) -> DERNode {
        let node = try read(DERTag.objectIdentifier, what())
        guard OIDText.isValid(node.contents) else {
            throw CertificateDecodingError(.malformedDER, "invalid OBJECT IDENTIFIER encoding")
        }
        return node
    }

    /// Reads the next element only if its tag is `tag`.
    mutating func readIfPresent(_ tag: UInt8) throws(CertificateDecodingError) -> DERNode? {
        guard peekTag == tag else { return nil }
        return try next()
    }

    /// Requires that nothing is left at this level.
    func expectEnd(_ what: @autoclosure () -> String) throws(CertificateDecodingError) {
        guard position >= end else {
            throw CertificateDecodingError(.malformedDER, "\(remaining) unexpected trailing bytes after \(what())")
        }
    }

    /// Walks every element below this level, descending into constructed ones, to validate the whole tree.
    mutating func validateTree() throws(CertificateDecodingError) {
        while let node = try next() {
            if node.isConstructed {
                var inner = try node.children()
                try inner.validateTree()
            }
        }
    }
}
