import Testing
@testable import CertKit

@Suite struct EncodingDERReaderTests {
    private func kind(_ bytes: [UInt8]) -> CertificateDecodingError.Code? {
        do throws(CertificateDecodingError) {
            try DERReader.read(bytes) { reader throws(CertificateDecodingError) in try reader.validateTree() }
            return nil
        } catch {
            return error.code
        }
    }

    @Test func readsShortAndLongLengths() throws {
        let bytes: [UInt8] = [0x04, 0x02, 0xAA, 0xBB, 0x04, 0x81, 0x80] + [UInt8](repeating: 1, count: 128)
        let (first, second, atEnd) = try DERReader.read(bytes) { reader throws(CertificateDecodingError) in
            (try reader.next()?.contentBytes, try reader.next()?.contentLength, try reader.next() == nil)
        }
        #expect(first == [0xAA, 0xBB])
        #expect(second == 128)
        #expect(atEnd)
    }

    @Test func rejectsIndefiniteLength() {
        #expect(kind([0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00]) == .malformedDER)
    }

    @Test func rejectsNonMinimalLengths() {
        #expect(kind([0x04, 0x81, 0x01, 0xAA]) == .malformedDER)
        #expect(kind([0x04, 0x82, 0x00, 0x81] + [UInt8](repeating: 0, count: 0x81)) == .malformedDER)
        #expect(kind([0x04, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00]) == .malformedDER)
        #expect(kind([0x04, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]) == .malformedDER)
    }

    @Test func rejectsTruncation() {
        #expect(kind([0x30]) == .malformedDER)
        #expect(kind([0x30, 0x03, 0x02, 0x01]) == .malformedDER)
        #expect(kind([0x30, 0x82, 0x01]) == .malformedDER)
        #expect(kind([0x30, 0x03, 0x02, 0x02, 0x01]) == .malformedDER)
    }

    @Test func rejectsMultiByteTags() {
        #expect(kind([0x1F, 0x81, 0x00, 0x00]) == .malformedDER)
    }

    @Test func boundsNesting() {
        func nested(_ depth: Int) -> [UInt8] {
            var bytes: [UInt8] = [0x05, 0x00]
            for _ in 0..<depth {
                precondition(bytes.count < 128)
                bytes = [0x30, UInt8(bytes.count)] + bytes
            }
            return bytes
        }
        #expect(kind(nested(20)) == nil)
        #expect(kind(nested(40)) == .malformedDER)
    }

    @Test func primitiveValues() throws {
        let bytes: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B,
                              0x01, 0x01, 0xFF, 0x02, 0x02, 0x00, 0x80, 0x02, 0x02, 0x00, 0x7F]
        try DERReader.read(bytes) { reader throws(CertificateDecodingError) in
            #expect(try reader.next()?.objectIdentifier() == "1.2.840.113549.1.1.11")
            #expect(try reader.next()?.boolean() == true)
            #expect(try reader.next()?.integerBytes() == [0x00, 0x80])
            #expect(throws: CertificateDecodingError.self) { try reader.next()?.integerBytes() }
        }
        #expect(OIDText.dotted([0x80, 0x01][...]) == nil)
        #expect(OIDText.dotted([0x2A, 0x86][...]) == nil)
    }

    @Test func times() {
        let utc = DERTime.parse(tag: DERTag.utcTime, Array("491231235959Z".utf8)[...])
        #expect(utc?.timeIntervalSince1970 == 2_524_607_999)
        let utc1950 = DERTime.parse(tag: DERTag.utcTime, Array("500101000000Z".utf8)[...])
        #expect(utc1950?.timeIntervalSince1970 == -631_152_000)
        let generalized = DERTime.parse(tag: DERTag.generalizedTime, Array("20500101000000Z".utf8)[...])
        #expect(generalized?.timeIntervalSince1970 == 2_524_608_000)
        #expect(DERTime.parse(tag: DERTag.utcTime, Array("4912312359Z".utf8)[...]) == nil)
        #expect(DERTime.parse(tag: DERTag.utcTime, Array("491231235959+0100".utf8)[...]) == nil)
        #expect(DERTime.parse(tag: DERTag.generalizedTime, Array("20500101000000.5Z".utf8)[...]) == nil)
        #expect(DERTime.parse(tag: DERTag.utcTime, Array("490230000000Z".utf8)[...]) == nil)
        #expect(DERTime.parse(tag: DERTag.generalizedTime, Array("20240229000000Z".utf8)[...]) != nil)
    }

    @Test func everyTruncationOfARealCertificateFails() throws {
        let certificate = try #require(try EncodingTestSupport.systemCertificates().first)
        let der = certificate.derEncoded
        for length in 0..<der.count {
            #expect(throws: CertificateDecodingError.self) { try Certificate(derEncoded: Array(der[0..<length])) }
        }
        #expect(throws: CertificateDecodingError.self) { try Certificate(derEncoded: der + [0x00]) }
        #expect(throws: CertificateDecodingError.self) { try Certificate(derEncoded: der + [0x05, 0x00]) }
    }
}

@Suite("CertificateDecodingError")
struct CertificateDecodingErrorTests {
    @Test func errorsCompareByKindNotMessage() {
        #expect(CertificateDecodingError(.malformedDER, "a") == CertificateDecodingError(.malformedDER, "b"))
        #expect(CertificateDecodingError(.malformedDER, "a") != CertificateDecodingError(.malformedPEM, "a"))
        #expect(throws: CertificateDecodingError(.malformedDER, "")) { try Certificate(derEncoded: []) }
    }
}
