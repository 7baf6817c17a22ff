/// A strict DER reader over a byte buffer: definite, minimally encoded lengths only, every access
/// bounds-checked, nesting bounded by ``maximumDepth``, low-tag-number identifiers only.
///
/// It reads the TLVs at one level; ``DERNode/children()`` descends. Nothing here traps on any input.
struct DERReader: Sendable {
    /// The deepest nesting accepted (a certificate needs about 10).
    static let maximumDepth = 32
    /// The largest length accepted (lengths are encoded in at most 4 octets).
    static let maximumLength = 0x7FFF_FFFF

    static let truncated = CertificateDecodingError(.malformedDER, "truncated DER: an element extends past the end of its container")

    private let buffer: [UInt8]
    private(set) var position: Int
    private let end: Int
    private let depth: Int

    /// A reader over the whole buffer at depth 0.
    init(_ buffer: [UInt8]) {
        self.buffer = buffer
        self.position = 0
        self.end = buffer.count
        self.depth = 0
    }

    /// A reader over `buffer[start..<end]` at `depth`.
    init(buffer: [UInt8], start: Int, end: Int, depth: Int) throws(CertificateDecodingError) {
        guard depth <= DERReader.maximumDepth else {
            throw CertificateDecodingError(.malformedDER, "DER nested deeper than \(DERReader.maximumDepth) levels")
        }
        guard start >= 0, start <= end, end <= buffer.count else { throw DERReader.truncated }
        self.buffer = buffer
        self.position = start
        self.end = end
        self.depth = depth
    }

    /// True when every element at this level has been read.
    var isAtEnd: Bool { position >= end }
    /// The number of unread octets at this level.
    var remaining: Int { end &- position }
    /// The identifier octet of the next element, without consuming it.
    var peekTag: UInt8? { position < end ? buffer[position] : nil }

    /// Reads the next element, or returns nil at the end of this level.
    mutating func next() throws(CertificateDecodingError) -> DERNode? {
        guard position < end else { return nil }
        let start = position
        var index = position
        let tag = buffer[index]
        guard tag & 0x1F != 0x1F else {
            throw CertificateDecodingError(.malformedDER, "unsupported multi-byte DER tag at offset \(start)")
        }
        index &+= 1
        guard index < end else { throw DERReader.truncated }
        let first = buffer[index]
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
            guard buffer[index] != 0 else {
                throw CertificateDecodingError(.malformedDER, "non-minimal length encoding (leading zero) at offset \(start)")
            }
            length = 0
            for _ in 0..<count {
                length = (length << 8) | Int(buffer[index])
                index &+= 1
            }
            guard length >= 0x80 else {
                throw CertificateDecodingError(.malformedDER, "non-minimal length encoding (long form for \(length)) at offset \(start)")
            }
            guard length <= DERReader.maximumLength else { throw DERReader.truncated }
        }
        guard length <= end &- index else { throw DERReader.truncated }
        position = index &+ length
        return DERNode(tag: tag, buffer: buffer, start: start, contentStart: index, end: position, depth: depth)
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
