@testable import CertKit
import CertKitOpenSSL
import CertKitSockets
import CertKitTestSupport
import Foundation
import Testing

/// The parsing bounds of `Limits`: each is an input error of kind `limitExceeded` naming the bound, counted
/// before the work it bounds, and a caller can tighten or raise it.
@Suite("Limits: parsing bounds")
struct LimitsParsingTests {
    static func expectLimit(_ bound: String, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected a \(bound) error")
        } catch {
            guard let error = error as? CertificateDecodingError else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(error.code == .limitExceeded, "\(error)")
            #expect(error.message.contains("Limits.\(bound)"), "\(error.message)")
            #expect(error.message.count <= CertificateDecodingError.maximumMessageLength + 1)
        }
    }

    static func limits(_ change: (inout Limits) -> Void) -> Limits {
        var limits = Limits.default
        change(&limits)
        return limits
    }

    @Test("a 2,000-attribute RDN is refused by default; with the bound raised it parses and compares folded")
    func attributesPerName() throws {
        let der = try AdversarialMatrix.bytes("rdn-2000-attributes.der")
        Self.expectLimit("maxAttributesPerName") { _ = try Certificate(derEncoded: der) }
        Self.expectLimit("maxAttributesPerName") {
            _ = try Certificate(derEncoded: der, limits: Self.limits { $0.maxAttributesPerName = 1_999 })
        }
        let certificate = try Certificate(derEncoded: der, limits: Self.limits { $0.maxAttributesPerName = 2_000 })
        #expect(certificate.subject.relativeNames.count == 1)
        #expect(certificate.subject.relativeNames[0].count == 2_000)
        // The issuer holds the same values upper-cased, in reverse order: equal under RFC 5280 §7.1.
        #expect(certificate.subject.derEncoded != certificate.issuer.derEncoded)
        #expect(certificate.isSelfIssued)
    }

    @Test("attributes are counted over all RDNs, and inside extensions too")
    func attributesAcrossRDNs() throws {
        let der = try AdversarialMatrix.bytes("rdns-4000.der")
        Self.expectLimit("maxAttributesPerName") { _ = try Certificate(derEncoded: der) }
        #expect(try Certificate(derEncoded: der, limits: Self.limits { $0.maxAttributesPerName = 4_000 })
            .subject.relativeNames.count == 4_000)

        // A SAN directoryName over the bound fails the certificate; it is not just a malformed extension.
        let attributes = (0..<3).map { index in
            DERBuilder.set([DERBuilder.sequence([DERBuilder.tlv(0x06, [0x55, 0x04, 0x0B]), DERBuilder.tlv(0x0C, Array("u\(index)".utf8))])])
        }
        let san = DERBuilder.sequence([DERBuilder.tlv(0xA4, DERBuilder.sequence(attributes))])
        let leaf = try AdversarialMatrix.bytes("leaf.der")
        let withDirectoryName = try DERBuilder.replacingExtensions(of: leaf, with: [DERBuilder.extension([0x55, 0x1D, 0x11], san)])
        #expect(try Certificate(derEncoded: withDirectoryName).extensions.subjectAlternativeNames?.count == 1)
        Self.expectLimit("maxAttributesPerName") {
            _ = try Certificate(derEncoded: withDirectoryName, limits: Self.limits { $0.maxAttributesPerName = 2 })
        }
    }

    @Test("40,000 extensions are refused by default; raised, they parse with duplicates found by hashing")
    func extensionsPerCertificate() throws {
        let der = try AdversarialMatrix.bytes("extensions-40000.der")
        Self.expectLimit("maxExtensionsPerCertificate") { _ = try Certificate(derEncoded: der) }
        let many = try Certificate(derEncoded: der, limits: Self.limits { $0.maxExtensionsPerCertificate = 40_000 })
        #expect(many.extensions.all.count == 40_000)
        #expect(many.extensions.duplicates.isEmpty)

        // 20 distinct private extensions, then the 18th, 3rd and 18th again: past the linear search.
        let leaf = try AdversarialMatrix.bytes("leaf.der")
        let oids = (1...20).map { [0x2B, 0x06, 0x01, 0x04, 0x01, 0x83, 0xB2, 0x03, UInt8($0)] }
        let extensions = (oids + [oids[17], oids[2], oids[17]]).map { DERBuilder.extension($0, [0x05, 0x00]) }
        let repeated = try Certificate(derEncoded: DERBuilder.replacingExtensions(of: leaf, with: extensions))
        #expect(repeated.extensions.all.count == 23)
        #expect(repeated.extensions.duplicates == ["1.3.6.1.4.1.55555.18", "1.3.6.1.4.1.55555.3"])
    }

    @Test("CRL entries are counted before they are decoded")
    func crlEntries() throws {
        let pem = try Data(contentsOf: ConcurrencyFixtures.directory.appendingPathComponent("revoked-leaf/int-revokes-leaf.crl.pem"))
        let der = try #require(try PEM.decode([UInt8](pem)).first).bytes
        let crl = try CertificateRevocationList(derEncoded: der)
        let entries = crl.revokedSerialNumbers.count
        #expect(entries >= 1)
        #expect(try CertificateRevocationList(derEncoded: der, limits: Self.limits { $0.maxCRLEntries = entries }) == crl)
        Self.expectLimit("maxCRLEntries") {
            _ = try CertificateRevocationList(derEncoded: der, limits: Self.limits { $0.maxCRLEntries = entries - 1 })
        }
        // 1,100,000 entries (26 MB): refused after counting headers, with the default bound.
        let huge = try AdversarialMatrix.expand(try AdversarialMatrix.load().recipe("crl-1100000-entries", "crl"))
        Self.expectLimit("maxCRLEntries") { _ = try CertificateRevocationList(derEncoded: huge) }
    }

    @Test("PEM blocks, certificates per input and input bytes are bounded for every container")
    func inputBounds() throws {
        let leaf = try AdversarialMatrix.bytes("leaf.der")
        let three = PEM.encode(leaf) + PEM.encode(leaf, label: "PRIVATE KEY") + PEM.encode(leaf)
        #expect(try PEM.decode(Array(three.utf8), limits: Self.limits { $0.maxPEMBlocks = 3 }).count == 3)
        Self.expectLimit("maxPEMBlocks") { _ = try PEM.decode(Array(three.utf8), limits: Self.limits { $0.maxPEMBlocks = 2 }) }
        Self.expectLimit("maxPEMBlocks") {
            _ = try CertificateBundle.decode(Array(three.utf8), limits: Self.limits { $0.maxPEMBlocks = 2 })
        }

        let two = Self.limits { $0.maxCertificatesPerInput = 2 }
        #expect(try CertificateBundle.decode(Array(three.utf8), limits: two).certificates.count == 2)
        Self.expectLimit("maxCertificatesPerInput") {
            _ = try CertificateBundle.decode(leaf + leaf + leaf, limits: two)
        }
        #expect(try CertificateBundle.decode(leaf + leaf, limits: two).certificates.count == 2)
        let matrix = try AdversarialMatrix.load()
        let pkcs7 = try AdversarialMatrix.expand(try matrix.recipe("pkcs7-12000-certificates", "p7b"))
        Self.expectLimit("maxCertificatesPerInput") { _ = try CertificateBundle.decode(pkcs7) }
        #expect(try CertificateBundle.decode(pkcs7, limits: Self.limits { $0.maxCertificatesPerInput = 12_000 })
            .certificates.count == 12_000)

        let small = Self.limits { $0.maxInputBytes = leaf.count - 1 }
        Self.expectLimit("maxInputBytes") { _ = try CertificateBundle.decode(leaf, limits: small) }
        Self.expectLimit("maxInputBytes") { _ = try Certificate(derEncoded: leaf, limits: small) }
        #expect(try Certificate(derEncoded: leaf, limits: Self.limits { $0.maxInputBytes = leaf.count }) == Certificate(derEncoded: leaf))
    }

    @Test("messages stay one short line: a 200 KB label, a 100 KB OID, 5,000 distinct labels")
    func shortMessages() throws {
        for file in ["huge-label.pem", "huge-oid.der"] {
            let bytes = try AdversarialMatrix.bytes(file)
            do throws(CertificateDecodingError) {
                _ = try CertificateBundle.decode(bytes)
                Issue.record("\(file) decoded")
            } catch {
                #expect(error.message.count < 200, "\(file): \(error.message.count) characters")
                #expect(!error.message.contains("\n"))
                #expect(error.message.contains("…"))
            }
        }
        let text = (0..<5_000).map { "-----BEGIN LABEL \($0)-----\nAAAA\n-----END LABEL \($0)-----\n" }.joined()
        do throws(CertificateDecodingError) {
            _ = try CertificateBundle.decode(Array(text.utf8))
            Issue.record("labels decoded")
        } catch {
            #expect(error.code == .noCertificate)
            #expect(error.message == "no certificate found (only a LABEL 0 block, a LABEL 1 block, a LABEL 2 block and "
                + "4997 blocks with 4997 other labels)")
        }
        #expect(CertificateDecodingError(.malformedDER, String(repeating: "x", count: 10_000)).message.count
            == CertificateDecodingError.maximumMessageLength + 1)
    }

    @Test("a server presenting a 2,000-attribute name: its chain is refused as undecodable, naming the bound")
    func presentedChain() throws {
        let der = try AdversarialMatrix.bytes("rdn-2000-attributes.der")
        let leaf = try AdversarialMatrix.bytes("leaf.der")
        do {
            _ = try PresentedChain.decode([leaf, der])
            Issue.record("decoded")
        } catch {
            #expect(error.index == 1 && error.decoded.count == 1)
            #expect(error.reason.contains("Limits.maxAttributesPerName"))
            #expect(TLSConnectError.undecodableCertificate(index: error.index, reason: error.reason).description
                == error.description)
        }
    }

    @Test("a PEM file of many blocks on one line decodes every block")
    func blocksOnOneLine() throws {
        let leaf = try AdversarialMatrix.bytes("leaf.der")
        let body = Base64.encode(leaf)
        let line = (0..<500).map { _ in "-----BEGIN CERTIFICATE-----\(body)-----END CERTIFICATE----- " }.joined()
        #expect(try CertificateBundle.decode(Array(line.utf8)).certificates.count == 500)
    }
}
