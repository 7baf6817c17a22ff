/// Writes DER TLVs (definite, minimal lengths): what the core encodes itself, an OCSP request.
enum DERWriter {
    /// One TLV of `tag` around `contents`.
    static func tlv(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        if contents.count < 0x80 {
            length = [UInt8(contents.count)]
        } else {
            var value = contents.count
            var octets: [UInt8] = []
            while value > 0 {
                octets.insert(UInt8(value & 0xFF), at: 0)
                value >>= 8
            }
            length = [0x80 | UInt8(octets.count)] + octets
        }
        return [tag] + length + contents
    }

    /// A SEQUENCE of `elements`, already encoded.
    static func sequence(_ elements: [[UInt8]]) -> [UInt8] { tlv(DERTag.sequence, elements.flatMap { $0 }) }
}
