@testable import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// Extensions decoded on first use (`DeferredExtensions`) must be what decoding them at once gave: the framing
/// check refuses what `ExtensionsParser.parse` refuses, and a deferred decode never fails.
@Suite("Deferred extensions")
struct DeferredExtensionsTests {
    /// Every certificate of the scenario fixtures, once each.
    static let certificates: [[UInt8]] = {
        var seen = Set<[UInt8]>()
        let root = Fixtures.scenariosDirectory.path
        let files = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".pem") }.sorted()
        for file in files {
            guard let data = FileManager.default.contents(atPath: root + "/" + file),
                  let bundle = try? CertificateBundle.decode([UInt8](data)) else { continue }
            for certificate in bundle.certificates { seen.insert(certificate.derEncoded) }
        }
        return seen.sorted { $0.lexicographicallyPrecedes($1) }
    }()

    /// Where the Extensions SEQUENCE's contents lie in `der`, when its structure gets that far.
    static func extensionsContents(_ der: [UInt8]) -> Range<Int>? {
        try? DERReader.read(der) { top throws(CertificateDecodingError) -> Range<Int>? in
            var outer = try top.read(DERTag.sequence, "certificate").children()
            var fields = try outer.read(DERTag.sequence, "tbs").children()
            while let field = try fields.next() {
                guard field.tag == DERTag.contextConstructed(3) else { continue }
                var inner = try field.children()
                return try inner.read(DERTag.sequence, "extensions").contentStart..<field.end
            }
            return nil
        } ?? nil
    }

    /// `ExtensionsParser.parse` of the Extensions SEQUENCE of `der`, as the decoder ran it before it deferred.
    static func decodedAtOnce(_ der: [UInt8]) -> Result<CertificateExtensions, CertificateDecodingError>? {
        do throws(CertificateDecodingError) {
            return try DERReader.read(der) { top throws(CertificateDecodingError) -> Result<CertificateExtensions, CertificateDecodingError>? in
                var outer = try top.read(DERTag.sequence, "certificate").children()
                var fields = try outer.read(DERTag.sequence, "tbs").children()
                while let field = try fields.next() {
                    guard field.tag == DERTag.contextConstructed(3) else { continue }
                    var inner = try field.children()
                    let sequence = try inner.read(DERTag.sequence, "extensions")
                    do throws(CertificateDecodingError) {
                        return .success(try ExtensionsParser.parse(sequence, limits: .default))
                    } catch {
                        return .failure(error)
                    }
                }
                return nil
            }
        } catch {
            return nil
        }
    }

    @Test("the fixtures' certificates: deferred or not, the same extensions as decoding them at once")
    func fixturesAgree() throws {
        #expect(Self.certificates.count > 100)
        var deferred = 0
        for der in Self.certificates {
            guard case .success(let expected)? = Self.decodedAtOnce(der) else { continue }
            let certificate = try Certificate(derEncoded: der)
            var extensions = certificate.extensions
            extensions.malformed.removeAll { $0.contains("version") }
            #expect(extensions == expected, "\(certificate.subject)")
            if certificate.extensionsDecodedOnFirstUse { deferred += 1 }
        }
        #expect(deferred > 100)
    }

    @Test("each extension's framing is checked at decode: a critical flag that is not a DER BOOLEAN is refused")
    func framingCheckedAtDecode() throws {
        let base = try #require(Self.certificates.first)
        let identifier = DERBuilder.tlv(0x04, [0x01, 0x02, 0x03])
        func certificate(critical flag: [[UInt8]]) throws -> [UInt8] {
            try DERBuilder.replacingExtensions(of: base, with: [
                DERBuilder.sequence([DERBuilder.tlv(0x06, [0x55, 0x1D, 0x0E])] + flag + [DERBuilder.tlv(0x04, identifier)]),
            ])
        }
        let good = try Certificate(derEncoded: try certificate(critical: [DERBuilder.tlv(0x01, [0xFF])]))
        #expect(good.extensionsDecodedOnFirstUse)
        #expect(good.extensions.all.first?.isCritical == true)
        #expect(good.extensions.subjectKeyIdentifier == [0x01, 0x02, 0x03])
        for flag: [UInt8] in [[0x01], [0x7F], [0x00, 0x00]] {
            #expect(throws: CertificateDecodingError.self, "critical \(flag)") {
                try Certificate(derEncoded: try certificate(critical: [DERBuilder.tlv(0x01, flag)]))
            }
        }
        // An OID that does not decode, and a value that is not an OCTET STRING, are refused at decode too.
        #expect(throws: CertificateDecodingError.self) {
            try Certificate(derEncoded: try DERBuilder.replacingExtensions(of: base, with: [
                DERBuilder.sequence([DERBuilder.tlv(0x06, [0x55, 0x9D]), DERBuilder.tlv(0x04, identifier)]),
            ]))
        }
        #expect(throws: CertificateDecodingError.self) {
            try Certificate(derEncoded: try DERBuilder.replacingExtensions(of: base, with: [
                DERBuilder.sequence([DERBuilder.tlv(0x06, [0x55, 0x1D, 0x0E]), DERBuilder.tlv(0x03, identifier)]),
            ]))
        }
    }

    @Test("50,000 mutated extension blocks: refused exactly when decoding at once refuses, else the same extensions")
    func mutationsAgree() throws {
        var generator = SystemRandomNumberGenerator()
        let interesting: [UInt8] = [0x00, 0x01, 0x04, 0x06, 0x30, 0x31, 0x55, 0x1D, 0x11, 0x80, 0x81, 0xA0, 0xA4, 0xFF]
        var refused = 0, accepted = 0
        for round in 0..<50_000 {
            var der = Self.certificates[round % Self.certificates.count]
            guard let region = Self.extensionsContents(der), !region.isEmpty else { continue }
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: region, using: &generator)
                der[position] = Bool.random(using: &generator)
                    ? interesting.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            let atOnce = Self.decodedAtOnce(der)
            let decoded = try? Certificate(derEncoded: der)
            switch atOnce {
            case .failure(let error)?:
                #expect(decoded == nil, "the certificate decodes although its extensions fail: \(error)")
                refused += 1
            case .success(let expected)?:
                guard let decoded else { refused += 1; continue }  // something outside the extensions failed
                var extensions = decoded.extensions  // a deferred decode: must not trap
                extensions.malformed.removeAll { $0.contains("version") }
                #expect(extensions == expected)
                accepted += 1
            case nil:
                continue
            }
        }
        #expect(refused > 1_000)
        #expect(accepted > 1_000)
    }
}
