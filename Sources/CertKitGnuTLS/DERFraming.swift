/// Just enough DER to check that an input is exactly one TLV (GnuTLS may ignore trailing bytes).
enum DERFraming {
    /// The total length (header + content) of the TLV at the start of `bytes`, or nil when the header is
    /// malformed or not definite-length DER.
    static func outerLength(of bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2, bytes[0] & 0x1F != 0x1F else { return nil }
        let first = bytes[1]
        if first < 0x80 { return 2 + Int(first) }
        let count = Int(first & 0x7F)
        guard count >= 1, count <= 4, bytes.count >= 2 + count else { return nil }
        var length = 0
        for byte in bytes[2..<(2 + count)] { length = length << 8 | Int(byte) }
        guard length >= 0x80, bytes[2] != 0 else { return nil }  // minimal encoding, as DER requires
        return 2 + count + length
    }
}
