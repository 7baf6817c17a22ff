@testable import CertKit
import Testing

@Suite("Known OID table")
struct EncodingKnownOIDTests {
    @Test("every table entry is found by its encoding and decodes to the text the general decoder gives")
    func tableAgreesWithDecoder() {
        #expect(KnownOIDs.entries.count > 60)
        for entry in KnownOIDs.entries {
            #expect(OIDText.dotted(entry.encoding[...]) == entry.text, "\(entry.text)")
            #expect(KnownOIDs.lookup(entry.encoding[...]) == entry.text, "\(entry.text)")
        }
    }

    @Test func knownEncodings() {
        // 2.5.4.3 (commonName) and 1.2.840.113549.1.1.11 (sha256WithRSAEncryption), as DER contents.
        #expect(KnownOIDs.lookup([0x55, 0x04, 0x03][...]) == "2.5.4.3")
        #expect(KnownOIDs.lookup([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B][...]) == "1.2.840.113549.1.1.11")
        // A non-minimal encoding of 2.5.4.3 is not in the table (the decoder rejects it).
        #expect(KnownOIDs.lookup([0x55, 0x80, 0x04, 0x03][...]) == nil)
        #expect(KnownOIDs.encode("1.3.6.1.4.1.11129.2.4.2") == [0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x04, 0x02])
    }

    @Test("a prefix, an extension or a slice of a known OID is not taken for it")
    func nearMissesAreUnknown() {
        for entry in KnownOIDs.entries {
            let bytes = entry.encoding
            let extended = bytes + [0x01]
            if !KnownOIDs.entries.contains(where: { $0.encoding == extended }) {
                #expect(KnownOIDs.lookup(extended[...]) == nil, "\(entry.text).1")
            }
            let shorter = bytes.dropLast()
            if !KnownOIDs.entries.contains(where: { $0.encoding[...] == shorter }) {
                #expect(KnownOIDs.lookup(shorter) == nil, "\(entry.text) without its last byte")
            }
            // A slice that does not start at index 0 is compared by its contents, not its indices.
            let framed: [UInt8] = [0x06] + bytes
            #expect(KnownOIDs.lookup(framed[1...]) == entry.text)
        }
    }

    @Test("an encoding is valid exactly when the general decoder gives it text")
    func validityAgreesWithDecoder() {
        var generator = SystemRandomNumberGenerator()
        let interesting: [UInt8] = [0x00, 0x01, 0x2A, 0x55, 0x7F, 0x80, 0x81, 0xFF]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...14, using: &generator)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &generator) ? interesting.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            #expect(OIDText.isValid(bytes[...]) == (OIDText.dotted(bytes[...]) != nil), "\(bytes)")
        }
    }
}
