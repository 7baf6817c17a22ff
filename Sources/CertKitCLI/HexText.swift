/// Hexadecimal renderings used in output.
enum HexText {
    /// `AB:CD:...`, uppercase, as `openssl x509 -fingerprint` prints digests.
    static func colonUppercase(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// `0a:1b:...`, lowercase, as `openssl x509 -text` prints serial numbers.
    static func colonLowercase(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}
