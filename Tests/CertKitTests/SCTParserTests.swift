@testable import CertKit
import Foundation
import Testing

/// The SignedCertificateTimestampList parser and the log list reader: strict, bounded, and never crashing on
/// malformed input (truncated, lengths that overrun or leave bytes over, too many SCTs, too many bytes).
@Suite("SCT lists and log lists: strict parsing")
struct SCTParserTests {
    static func sct(_ seed: UInt8, signatureLength: Int = 70, extensions: [UInt8] = []) -> SignedCertificateTimestamp {
        SignedCertificateTimestamp(
            logID: [UInt8](repeating: seed, count: 32), timestamp: 1_700_000_000_000 + UInt64(seed),
            extensions: extensions, signatureAlgorithm: 3, signature: [UInt8](repeating: seed &+ 1, count: signatureLength))
    }

    static func list(_ scts: [SignedCertificateTimestamp]) -> [UInt8] {
        TLSEncoding.opaque16(scts.flatMap { TLSEncoding.opaque16($0.encoded) })
    }

    /// The error parsing `bytes` throws, nil when it parses (never the parsed value: it may be large).
    static func failure(_ bytes: [UInt8], limits: Limits = .default) -> CertificateDecodingError? {
        do {
            _ = try SCTListParser.parse(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test("a well-formed list reads back field by field")
    func roundTrip() throws {
        let scts = [Self.sct(1), Self.sct(2, extensions: [9, 9, 9]), Self.sct(3, signatureLength: 256)]
        let parsed = try SCTListParser.parse(Self.list(scts))
        #expect(parsed == scts)
        #expect(parsed[1].extensions == [9, 9, 9])
        #expect(parsed[0].date == Date(timeIntervalSince1970: 1_700_000_000.001))
        // The extension value wraps the list in an OCTET STRING.
        let wrapped = [0x04, 0x82, UInt8(Self.list(scts).count >> 8), UInt8(Self.list(scts).count & 0xFF)] + Self.list(scts)
        #expect(try SCTListParser.parseExtensionValue(wrapped) == scts)
        #expect(throws: CertificateDecodingError.self) { try SCTListParser.parseExtensionValue(wrapped + [0]) }
        #expect(throws: CertificateDecodingError.self) { try SCTListParser.parseExtensionValue(Self.list(scts)) }
    }

    @Test("every truncation is an error")
    func truncated() throws {
        let bytes = Self.list([Self.sct(1), Self.sct(2)])
        for count in 0..<bytes.count {
            #expect(Self.failure(Array(bytes.prefix(count))) != nil, "\(count) bytes")
        }
    }

    @Test("lengths that overrun or leave bytes over, empty lists and SCTs, trailing bytes")
    func badLengths() throws {
        let one = Self.sct(1).encoded
        let cases: [(String, [UInt8])] = [
            ("total longer than the bytes", TLSEncoding.opaque16(TLSEncoding.opaque16(one)).enumerated().map { $0.offset == 1 ? $0.element + 1 : $0.element }),
            ("total shorter than the bytes", TLSEncoding.opaque16(TLSEncoding.opaque16(one)) + [0]),
            ("a whole SCT after the list", TLSEncoding.opaque16(TLSEncoding.opaque16(one)) + TLSEncoding.opaque16(Self.sct(2).encoded)),
            ("SCT length past the list", TLSEncoding.opaque16([0x7F, 0xFF] + one)),
            ("SCT length short of its SCT", TLSEncoding.opaque16([UInt8(one.count >> 8), UInt8((one.count - 1) & 0xFF)] + one)),
            ("bytes after the signature", TLSEncoding.opaque16(TLSEncoding.opaque16(one + [0]))),
            ("empty list", [0, 0]),
            ("empty SCT", TLSEncoding.opaque16([0, 0])),
            ("extensions length past the SCT", TLSEncoding.opaque16(TLSEncoding.opaque16(Array(one[0..<41]) + [0xFF, 0xFF] + Array(one[43...])))),
            ("empty signature", Self.list([Self.sct(1, signatureLength: 0)])),
        ]
        for (name, bytes) in cases {
            #expect(Self.failure(bytes) != nil, "\(name)")
        }
        // An SCT of another version is kept as not understood, whatever follows its version byte.
        let other = try SCTListParser.parse(TLSEncoding.opaque16(TLSEncoding.opaque16([1, 2, 3])))
        #expect(other.count == 1 && other[0].version == 1)
    }

    @Test("the bounds: Limits.maxSCTsPerList and maxSCTListBytes")
    func bounds() throws {
        let sixteen = (0..<16).map { Self.sct(UInt8($0), signatureLength: 8) }
        #expect(try SCTListParser.parse(Self.list(sixteen)).count == 16)
        let seventeen = Self.list(sixteen + [Self.sct(99, signatureLength: 8)])
        #expect(Self.failure(seventeen)?.code == .limitExceeded)
        var limits = Limits.default
        limits.maxSCTsPerList = 2
        #expect(Self.failure(Self.list(Array(sixteen.prefix(3))), limits: limits)?.message.contains("maxSCTsPerList") == true)
        #expect(try SCTListParser.parse(Self.list(Array(sixteen.prefix(2))), limits: limits).count == 2)
        let big = Self.list([Self.sct(1, signatureLength: 4100), Self.sct(2, signatureLength: 4100)])
        #expect(big.count > 8192)
        #expect(Self.failure(big)?.code == .limitExceeded)
        limits = .default
        limits.maxSCTListBytes = big.count
        #expect((try SCTListParser.parse(big, limits: limits)).count == 2)
        limits.maxSCTListBytes = big.count - 1
        #expect(Self.failure(big, limits: limits)?.code == .limitExceeded)
    }

    @Test("random damage never crashes: 20,000 mutated lists either parse or throw")
    func mutations() throws {
        var generator = SystemRandomNumberGenerator()
        let base = Self.list([Self.sct(1), Self.sct(2, extensions: [1, 2]), Self.sct(3)])
        var parsed = 0
        for _ in 0..<20_000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &generator)...)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...bytes.count, using: &generator))
                }
                if bytes.isEmpty { bytes = [0] }
            }
            if (try? SCTListParser.parse(bytes)) != nil { parsed += 1 }
        }
        #expect(parsed < 20_000)
    }

    static let key = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEmLf/Fx0gHGTxP2FgcsKShmqbOWdSjYwmBbWkHbveNbIGlCi9k4anuPfegoJ7+X+XUicY1TFoLR/EhOs0gEsb0w=="

    static func document(_ log: String) -> [UInt8] {
        Array("""
            {"version": "3", "log_list_timestamp": "2030-06-01T00:00:00.5Z", "operators": [{"name": "Op", "email": [], "logs": [\(log)]}]}
            """.utf8)
    }

    static let goodLog = #"{"description": "L", "log_id": "\#(Base64.encode([UInt8](repeating: 7, count: 32)))", "key": "\#(key)", "url": "https://l/", "mmd": 86400, "state": {"usable": {"timestamp": "2025-01-01T00:00:00Z"}}, "temporal_interval": {"start_inclusive": "2030-01-01T00:00:00Z", "end_exclusive": "2031-01-01T00:00:00+01:00"}}"#

    @Test("a v3 log list reads; its times with fractions and offsets")
    func logList() throws {
        let list = try CTLogList(json: Self.document(Self.goodLog), source: "list.json")
        #expect(list.timestamp == Date(timeIntervalSince1970: 1906502400.5))
        #expect(list.logs.count == 1)
        let log = try #require(list.log(id: [UInt8](repeating: 7, count: 32)))
        #expect(log.state == .usable && log.operatorName == "Op" && log.isRFC6962 && log.key.algorithm == .ec(curve: "prime256v1", bits: 256))
        #expect(log.temporalInterval?.upperBound == Date(timeIntervalSince1970: 1924988400))
    }

    @Test("bad log lists are errors naming the file and the member")
    func badLogLists() throws {
        let logID = Base64.encode([UInt8](repeating: 7, count: 32))
        let cases: [(String, [UInt8])] = [
            ("bad JSON", Array("{\"operators\": [".utf8)),
            ("not an object", Array("[]".utf8)),
            ("no timestamp", Array(#"{"operators": []}"#.utf8)),
            ("bad timestamp", Array(#"{"log_list_timestamp": "2030-06-01", "operators": []}"#.utf8)),
            ("log id not 32 bytes", Self.document(#"{"log_id": "AAAA", "key": "\#(Self.key)"}"#)),
            ("key not SPKI", Self.document(#"{"log_id": "\#(logID)", "key": "AAAA"}"#)),
            ("two states", Self.document(#"{"log_id": "\#(logID)", "key": "\#(Self.key)", "state": {"usable": {"timestamp": "2025-01-01T00:00:00Z"}, "retired": {"timestamp": "2025-01-01T00:00:00Z"}}}"#)),
            ("unknown state", Self.document(#"{"log_id": "\#(logID)", "key": "\#(Self.key)", "state": {"frozen": {"timestamp": "2025-01-01T00:00:00Z"}}}"#)),
            ("interval backwards", Self.document(#"{"log_id": "\#(logID)", "key": "\#(Self.key)", "temporal_interval": {"start_inclusive": "2031-01-01T00:00:00Z", "end_exclusive": "2030-01-01T00:00:00Z"}}"#)),
        ]
        for (name, bytes) in cases {
            #expect(throws: CertificateDecodingError.self, "\(name)") { try CTLogList(json: bytes, source: "mine.json") }
            do {
                _ = try CTLogList(json: bytes, source: "mine.json")
            } catch {
                #expect(error.message.hasPrefix("mine.json: "), "\(name): \(error.message)")
            }
        }
    }
}
