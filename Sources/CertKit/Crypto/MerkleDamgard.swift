/// The padding and block iteration SHA-1 and SHA-256 share (64-byte blocks, big-endian bit length).
enum MerkleDamgard {
    /// Calls `body` with each 64-byte block of `bytes` followed by the FIPS 180-4 padding.
    static func blocks(of bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let fullBlocks = bytes.count / 64
        bytes.withUnsafeBufferPointer { input in
            for index in 0..<fullBlocks {
                body(UnsafeBufferPointer(rebasing: input[(index * 64)..<(index * 64 + 64)]))
            }
        }
        var tail = Array(bytes[(fullBlocks * 64)...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = UInt64(truncatingIfNeeded: bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBufferPointer { input in
            for index in 0..<(input.count / 64) {
                body(UnsafeBufferPointer(rebasing: input[(index * 64)..<(index * 64 + 64)]))
            }
        }
    }

    /// The state words as big-endian bytes.
    static func bigEndianBytes(_ words: [UInt32]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(words.count * 4)
        for word in words {
            out.append(UInt8(truncatingIfNeeded: word >> 24))
            out.append(UInt8(truncatingIfNeeded: word >> 16))
            out.append(UInt8(truncatingIfNeeded: word >> 8))
            out.append(UInt8(truncatingIfNeeded: word))
        }
        return out
    }
}

extension UInt32 {
    @inline(__always) func rotateRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 &- count)) }
    @inline(__always) func rotateLeft(_ count: UInt32) -> UInt32 { (self << count) | (self >> (32 &- count)) }
}
