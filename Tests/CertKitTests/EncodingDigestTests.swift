import Testing
@testable import CertKit

@Suite struct EncodingDigestTests {
    static let message448 = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)

    @Test func sha256Vectors() {
        #expect(Hex.encode(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Hex.encode(SHA256.hash(Self.message448)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Hex.encode(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func sha1Vectors() {
        #expect(Hex.encode(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Hex.encode(SHA1.hash([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(Hex.encode(SHA1.hash(Self.message448)) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(Hex.encode(SHA1.hash([UInt8](repeating: 0x61, count: 1_000_000)))
            == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func paddingBoundaries() throws {
        for length in [55, 56, 63, 64, 65, 119, 120, 128] {
            let bytes = [UInt8](repeating: 0x5A, count: length)
            let sha256 = try EncodingTestSupport.openssl("dgst -sha256 -r", input: bytes).prefix(64)
            let sha1 = try EncodingTestSupport.openssl("dgst -sha1 -r", input: bytes).prefix(40)
            #expect(Hex.encode(SHA256.hash(bytes)) == sha256, "length \(length)")
            #expect(Hex.encode(SHA1.hash(bytes)) == sha1, "length \(length)")
        }
    }
}
