/// Writes strict RFC 7468 PEM: 64-column base64 lines, LF line endings, a trailing LF.
enum PEMEncoder {
    static func encode(_ bytes: [UInt8], label: String) -> String {
        let base64 = Base64.encodeBytes(bytes)
        var out = [UInt8]()
        out.reserveCapacity(base64.count + base64.count / 64 + 2 * label.utf8.count + 40)
        out.append(contentsOf: "-----BEGIN \(label)-----\n".utf8)
        var index = 0
        while index < base64.count {
            let lineEnd = min(index + 64, base64.count)
            out.append(contentsOf: base64[index..<lineEnd])
            out.append(UInt8(ascii: "\n"))
            index = lineEnd
        }
        out.append(contentsOf: "-----END \(label)-----\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }
}
