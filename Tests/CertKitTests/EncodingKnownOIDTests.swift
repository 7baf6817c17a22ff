@testable import CertKit
import Testing

@Suite("Known OID table")
struct EncodingKnownOIDTests {
    @Test("every table entry decodes to the same text the general decoder gives")
    func tableAgreesWithDecoder() {
        #expect(KnownOIDs.byEncoding.count > 60)
        for (key, text) in KnownOIDs.byEncoding {
            #expect(OIDText.dotted(key.bytes) == text, "\(text)")
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
}
