import Testing
@testable import CertKit

@Suite struct EncodingPEMTests {
    static let der: [UInt8] = Array(0..<200).map { UInt8($0 & 0xFF) }

    private func decodeText(_ text: String) throws(CertificateDecodingError) -> [PEMBlock] {
        try PEM.decode(Array(text.utf8))
    }

    private func errorMessage(_ text: String) -> (CertificateDecodingError.Code, String)? {
        do {
            _ = try decodeText(text)
            return nil
        } catch {
            return (error.code, error.message)
        }
    }

    @Test func encodesStrictRFC7468() {
        let text = PEM.encode(Self.der)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "-----BEGIN CERTIFICATE-----")
        #expect(text.hasSuffix("-----END CERTIFICATE-----\n"))
        #expect(!text.contains("\r"))
        let body = lines.dropFirst().dropLast(2)
        #expect(body.dropLast().allSatisfy { $0.count == 64 })
        #expect((body.last?.count ?? 0) <= 64)
    }

    @Test func base64RoundTripsEveryLength() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base64.encode(bytes)
            #expect(Base64.decode(text) == bytes)
            #expect(text.count % 4 == 0)
        }
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
        #expect(Base64.decode("Zm8") == Array("fo".utf8))
        #expect(Base64.decode("Zm8==") == nil)
        #expect(Base64.decode("Z") == nil)
        #expect(Base64.decode("Zm8=Zm8=") == nil)
        #expect(Base64.decode("Zm 8=") == nil)
        #expect(Base64.decode("Zm*=") == nil)
    }

    @Test("the multi-character fast path decodes exactly as one character at a time")
    func base64FastPathAgreesWithCharacterPath() {
        // A space after every character keeps every quantum off the fast path (spaces are skipped anywhere), so
        // the spaced text is decoded one character at a time: both must give the same bytes, or both nil.
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let odd = Array("=\n\r\t *-".utf8)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let text: [UInt8] = (0..<count).map { _ in
                Int.random(in: 0..<10, using: &generator) == 0
                    ? odd.randomElement(using: &generator)! : alphabet.randomElement(using: &generator)!
            }
            let spaced: [UInt8] = text.flatMap { byte -> [UInt8] in [byte, 0x20] }
            let fast = Base64.decode(text, from: 0, to: text.count)
            #expect(fast == Base64.decode(spaced, from: 0, to: spaced.count), "\(String(decoding: text, as: UTF8.self))")
            // And from an offset inside a larger buffer.
            let framed: [UInt8] = [0x2D, 0x2D] + text + [0x2D]
            #expect(Base64.decode(framed, from: 2, to: 2 + text.count) == fast)
        }
        #expect(Base64.decode([], from: 0, to: 0) == [])
    }

    @Test("the eight-byte dash search finds the first dash at every offset and alignment")
    func dashSearchAgreesWithLinearScan() {
        for length in 0..<40 {
            for dash in [-1] + Array(0..<length) {
                var text = [UInt8](repeating: 0x41, count: length)
                if dash >= 0 { text[dash] = 0x2D; if dash + 3 < length { text[dash + 3] = 0x2D } }
                for from in 0...length {
                    let expected = text[from...].firstIndex(of: 0x2D)
                    let found = text.withUnsafeBufferPointer { PEMDecoder.firstIndex(of: 0x2D, in: $0, from: from, to: length) }
                    #expect(found == expected, "length \(length), dash \(dash), from \(from)")
                }
            }
        }
    }

    @Test func toleratesCRLFWidthsSpacesAndSurroundingText() throws {
        let base64 = Base64.encode(Self.der)
        var wide = ""
        var index = base64.startIndex
        while index < base64.endIndex {
            let end = base64.index(index, offsetBy: 76, limitedBy: base64.endIndex) ?? base64.endIndex
            wide += "  " + base64[index..<end] + "\t \r\n"
            index = end
        }
        let text = "depth=0 CN = example\nverify return:1\n---\nServer certificate\r\n-----BEGIN CERTIFICATE-----\r\n"
            + wide + "-----END CERTIFICATE-----\r\nsubject=CN = example\n---\n"
        let blocks = try decodeText(text)
        #expect(blocks == [PEMBlock(label: "CERTIFICATE", bytes: Self.der)])
        let oneLine = "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----"
        #expect(try decodeText(oneLine).first?.bytes == Self.der)
    }

    @Test func readsManyBlocksInOrder() throws {
        let text = PEM.encode([1, 2, 3]) + "between\n" + PEM.encode([4, 5], label: "PRIVATE KEY") + PEM.encode([6])
        let blocks = try decodeText(text)
        #expect(blocks.map(\.label) == ["CERTIFICATE", "PRIVATE KEY", "CERTIFICATE"])
        #expect(blocks.map(\.bytes) == [[1, 2, 3], [4, 5], [6]])
        #expect(try decodeText("no pem here").isEmpty)
    }

    @Test func skipsRFC1421Headers() throws {
        let text = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00FF\n\n"
            + Base64.encode([9, 9, 9]) + "\n-----END RSA PRIVATE KEY-----\n"
        #expect(try decodeText(text).first?.bytes == [9, 9, 9])
    }

    @Test func reportsBrokenBlocks() {
        let good = PEM.encode([1, 2, 3])
        let missingEnd = errorMessage(good + "-----BEGIN CERTIFICATE-----\nAQID\n")
        #expect(missingEnd?.0 == .malformedPEM)
        #expect(missingEnd?.1 == "PEM block 2 (CERTIFICATE): missing END line")
        let mismatched = errorMessage("-----BEGIN CERTIFICATE-----\nAQID\n-----END PRIVATE KEY-----\n")
        #expect(mismatched?.0 == .malformedPEM)
        #expect(mismatched?.1 == "PEM block 1: BEGIN CERTIFICATE is closed by END PRIVATE KEY")
        let badBase64 = errorMessage("-----BEGIN CERTIFICATE-----\nAQ!D\n-----END CERTIFICATE-----\n")
        #expect(badBase64?.1 == "PEM block 1 (CERTIFICATE): invalid base64")
        let nested = errorMessage("-----BEGIN CERTIFICATE-----\nAQID\n" + good)
        #expect(nested?.0 == .malformedPEM)
        #expect(nested.map { !$0.1.contains("\n") } == true)
    }
}
