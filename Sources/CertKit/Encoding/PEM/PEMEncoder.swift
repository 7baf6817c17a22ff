/// Writes strict RFC 7468 PEM: 64-column base64 lines, LF line endings, a trailing LF.
enum PEMEncoder {
    static func encode(_ bytes: [UInt8], label: String) -> String {
        let out = [UInt8](unsafeUninitializedCapacity: encodedCount(bytes.count, label: label)) { out, initialized in
            initialized = bytes.withUnsafeBufferPointer { encode($0, label: label, into: out) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The length of the block for `byteCount` bytes under `label`.
    static func encodedCount(_ byteCount: Int, label: String) -> Int {
        let base64 = Base64.encodedCount(byteCount)
        return "-----BEGIN \(label)-----\n".utf8.count + base64 + (base64 + 63) / 64 + "-----END \(label)-----\n".utf8.count
    }

    /// Writes the block for `input` at the start of `out` (at least ``encodedCount(_:label:)`` bytes), 48 input
    /// bytes (64 characters) a line, with no intermediate copy of the input or its base64 text (the PEM of a private
    /// key goes straight into a buffer that is zeroed later). Returns how many bytes it wrote.
    static func encode(_ input: UnsafeBufferPointer<UInt8>, label: String, into out: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        var o = 0
        func append(_ text: String) {
            for byte in text.utf8 {
                out[o] = byte
                o += 1
            }
        }
        append("-----BEGIN \(label)-----\n")
        var index = 0
        while index < input.count {
            let lineEnd = min(index + 48, input.count)
            o += Base64.encode(UnsafeBufferPointer(rebasing: input[index..<lineEnd]), into: UnsafeMutableBufferPointer(rebasing: out[o...]))
            out[o] = UInt8(ascii: "\n")
            o += 1
            index = lineEnd
        }
        append("-----END \(label)-----\n")
        return o
    }
}
