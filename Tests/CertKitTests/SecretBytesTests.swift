@testable import CertKit
import Testing

/// SecretBytes: the buffer key material lives in (zeroed on release), and the PEM encoding that goes straight
/// into one.
struct SecretBytesTests {
    private func bytes(_ secret: SecretBytes) -> [UInt8] { secret.withUnsafeBytes { Array($0) } }

    @Test("holds the bytes, NUL-terminated for C, and never shows them")
    func contents() {
        let secret = SecretBytes(copying: Array("hunter2".utf8))
        #expect(bytes(secret) == Array("hunter2".utf8))
        #expect(secret.count == 7 && !secret.isEmpty)
        #expect(secret.withCString { String(cString: $0) } == "hunter2")
        #expect(secret.description == "<7 secret bytes>")
        #expect(!"\(secret) \(String(reflecting: secret)) \(Mirror(reflecting: secret).children.map(\.value))".contains("hunter"))
        #expect(SecretBytes(copying: []).isEmpty)
        #expect(SecretBytes(copying: []).withCString { String(cString: $0) } == "")
    }

    @Test("wipe overwrites every byte with zero")
    func wipe() {
        let secret = SecretBytes(copying: [UInt8](repeating: 0xA5, count: 100))
        secret.wipe()
        #expect(bytes(secret) == [UInt8](repeating: 0, count: 100))
    }

    @Test("first line, pattern search, concatenation")
    func helpers() {
        #expect(bytes(SecretBytes(copying: Array("pw\r\nsecond".utf8)).firstLine()) == Array("pw".utf8))
        #expect(bytes(SecretBytes(copying: Array("pw\nsecond".utf8)).firstLine()) == Array("pw".utf8))
        #expect(bytes(SecretBytes(copying: Array("pw".utf8)).firstLine()) == Array("pw".utf8))
        #expect(bytes(SecretBytes(copying: Array("\npw".utf8)).firstLine()).isEmpty)
        let pem = SecretBytes(copying: Array("junk\n-----BEGIN PRIVATE KEY-----\n".utf8))
        #expect(pem.contains("-----BEGIN"))
        #expect(!SecretBytes(copying: [0x30, 0x82, 0x01]).contains("-----BEGIN"))
        #expect(!SecretBytes(copying: Array("-----BEGI".utf8)).contains("-----BEGIN"))
        let joined = SecretBytes(copying: [1, 2]).appending(SecretBytes(copying: [3]))
        #expect(bytes(joined) == [1, 2, 3])
    }

    @Test("PEM of secret bytes is exactly PEM.encode's", arguments: [0, 1, 2, 3, 47, 48, 49, 95, 96, 97, 1217])
    func pem(count: Int) {
        let input = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let encoded = SecretBytes(copying: input).pemEncoded(label: "PRIVATE KEY")
        #expect(bytes(encoded) == Array(PEM.encode(input, label: "PRIVATE KEY").utf8))
        #expect(encoded.count == PEMEncoder.encodedCount(count, label: "PRIVATE KEY"))
    }
}
