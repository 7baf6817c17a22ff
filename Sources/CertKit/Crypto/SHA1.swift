/// SHA-1 (FIPS 180-4), pure Swift; for fingerprints only.
public enum SHA1 {
    /// The 20-byte digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
        var schedule = [UInt32](repeating: 0, count: 80)
        MerkleDamgard.blocks(of: bytes) { block in
            compress(&state, &schedule, block)
        }
        return MerkleDamgard.bigEndianBytes(state)
    }

    private static func compress(_ state: inout [UInt32], _ w: inout [UInt32], _ block: UnsafeBufferPointer<UInt8>) {
        w.withUnsafeMutableBufferPointer { w in
            for t in 0..<16 {
                w[t] = UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16
                    | UInt32(block[4 * t + 2]) << 8 | UInt32(block[4 * t + 3])
            }
            for t in 16..<80 { w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotateLeft(1) }
            var a = state[0], b = state[1], c = state[2], d = state[3], e = state[4]
            for t in 0..<80 {
                let f: UInt32, k: UInt32
                switch t {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A827999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC
                default: f = b ^ c ^ d; k = 0xCA62C1D6
                }
                let temp = a.rotateLeft(5) &+ f &+ e &+ k &+ w[t]
                e = d; d = c; c = b.rotateLeft(30); b = a; a = temp
            }
            state[0] = state[0] &+ a; state[1] = state[1] &+ b; state[2] = state[2] &+ c
            state[3] = state[3] &+ d; state[4] = state[4] &+ e
        }
    }
}
