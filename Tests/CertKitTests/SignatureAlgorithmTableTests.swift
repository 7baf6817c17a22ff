@testable import CertKit
import Testing

/// The table of common signature AlgorithmIdentifiers gives exactly what decoding them gives, and anything else
/// (another digest, absent or other parameters) is decoded.
@Suite struct SignatureAlgorithmTableTests {
    static func both(_ encoding: [UInt8]) throws -> (table: SignatureAlgorithm, decoded: SignatureAlgorithm) {
        try DERReader.read(encoding) { reader throws(CertificateDecodingError) in
            guard let node = try reader.next() else { throw CertificateDecodingError(.empty, "empty") }
            return (try AlgorithmIdentifierParser.signatureAlgorithm(node), try AlgorithmIdentifierParser.decodeSignatureAlgorithm(node))
        }
    }

    @Test("every entry is what decoding its encoding gives, with a scheme")
    func entriesAgreeWithDecoder() throws {
        let common = AlgorithmIdentifierParser.common
        #expect(common.count == 8)
        #expect(common.first?.name == "sha256WithRSAEncryption")
        for entry in common {
            let (table, decoded) = try Self.both(entry.encoded)
            #expect(table == decoded)
            #expect(table.oid == decoded.oid && table.name == decoded.name && table.hash == decoded.hash)
            #expect(table.scheme == decoded.scheme && table.scheme != nil, "\(entry.name)")
        }
    }

    @Test("near misses are decoded, not taken from the table")
    func nearMissesAreDecoded() throws {
        let sha256RSA: [UInt8] = [0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B, 0x05, 0x00]
        let cases: [[UInt8]] = [
            [0x30, 0x0B, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B],  // parameters absent
            [0x30, 0x0E, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B, 0x04, 0x01, 0x00],  // not NULL
            [0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x04, 0x05, 0x00],  // MD5
            [0x30, 0x0C, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02, 0x05, 0x00],  // ECDSA with NULL
        ]
        for encoding in cases {
            let (table, decoded) = try Self.both(encoding)
            #expect(table == decoded)
            #expect(!AlgorithmIdentifierParser.common.contains { $0.encoded == encoding })
        }
        #expect(try Self.both(cases[1]).table.scheme == nil, "RSA with parameters that are not NULL has no scheme")
        #expect(try Self.both(cases[2]).table.hash == .md5, "MD5 (judged by the strength rule, not the table)")
        #expect(try Self.both(cases[3]).table.scheme == nil, "ECDSA takes no parameters")
        #expect(try Self.both(sha256RSA).table.scheme == .rsaPKCS1(.sha256))
    }
}
