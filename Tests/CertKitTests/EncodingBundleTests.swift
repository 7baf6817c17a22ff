@testable import CertKit
import CertKitTestSupport
import Foundation
import Testing

@Suite struct EncodingBundleTests {
    /// Two self-signed certificates, a key, their DER forms and a PKCS#7 bundle of both, made by the openssl CLI.
    struct Material {
        var pem: [[UInt8]] = []
        var der: [[UInt8]] = []
        var key: [UInt8] = []
        var pkcs7DER: [UInt8] = []
        var pkcs7PEM: [UInt8] = []
        var trusted: [UInt8] = []
        var crlDER: [UInt8] = []
    }

    static let shared = Result { try makeMaterial() }

    static func makeMaterial() throws -> Material {
        let pki = try TestPKI(prefix: "certkit-encoding")
        let directory = pki.directory.url
        let first = try pki.selfSigned("one", subject: "/CN=one.example", key: "ec:prime256v1")
        let second = try pki.selfSigned("two", subject: "/CN=two.example", key: "ec:secp384r1")
        let path = directory.path
        try EncodingTestSupport.shell("""
            cd '\(path)' && openssl x509 -in one.pem -outform DER -out one.der && openssl x509 -in two.pem -outform DER -out two.der \
            && openssl crl2pkcs7 -nocrl -certfile one.pem -certfile two.pem -outform DER -out bundle.p7b \
            && openssl crl2pkcs7 -nocrl -certfile one.pem -certfile two.pem -out bundle.p7b.pem \
            && openssl x509 -in one.pem -trustout -addtrust serverAuth -out trusted.pem \
            && printf '[ca]\\ndefault_ca=d\\n[d]\\ndatabase=index.txt\\ndefault_md=sha256\\ncrlnumber=crlnumber\\ncrl_extensions=e\\n[e]\\nauthorityKeyIdentifier=keyid:always\\n' > ca.cnf \
            && touch index.txt && echo 01 > crlnumber \
            && openssl ca -config ca.cnf -revoke two.pem -keyfile one.key -cert one.pem 2>/dev/null \
            && openssl ca -config ca.cnf -gencrl -keyfile one.key -cert one.pem -crldays 30 -out crl.pem 2>/dev/null \
            && openssl crl -in crl.pem -outform DER -out crl.der
            """)
        func read(_ name: String) throws -> [UInt8] { try EncodingTestSupport.read(directory.appendingPathComponent(name)) }
        var material = Material()
        material.pem = [try EncodingTestSupport.read(first), try EncodingTestSupport.read(second)]
        material.der = [try read("one.der"), try read("two.der")]
        material.key = try read("one.key")
        material.pkcs7DER = try read("bundle.p7b")
        material.pkcs7PEM = try read("bundle.p7b.pem")
        material.trusted = try read("trusted.pem")
        material.crlDER = try read("crl.der")
        return material
    }

    private func failure(_ bytes: [UInt8]) -> CertificateDecodingError? {
        do {
            _ = try CertificateBundle.decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func detectsPEM() throws {
        let material = try Self.shared.get()
        let bundle = try CertificateBundle.decode(material.pem[0] + Array("\n# comment\n".utf8) + material.pem[1])
        #expect(bundle.format == .pem)
        #expect(bundle.certificates.map(\.derEncoded) == material.der)
        #expect(bundle.certificates.map(\.subject.commonName) == ["one.example", "two.example"])
    }

    @Test func detectsDERAndConcatenatedDER() throws {
        let material = try Self.shared.get()
        let single = try CertificateBundle.decode(material.der[0])
        #expect(single.format == .der)
        #expect(single.certificates.map(\.derEncoded) == [material.der[0]])
        let both = try CertificateBundle.decode(material.der[0] + material.der[1])
        #expect(both.format == .derSequence)
        #expect(both.certificates.map(\.derEncoded) == material.der)
    }

    @Test func detectsPKCS7() throws {
        let material = try Self.shared.get()
        let der = try CertificateBundle.decode(material.pkcs7DER)
        #expect(der.format == .pkcs7DER)
        #expect(Set(der.certificates.map(\.derEncoded)) == Set(material.der))
        let pem = try CertificateBundle.decode(material.pkcs7PEM)
        #expect(pem.format == .pkcs7PEM)
        #expect(pem.certificates == der.certificates)
    }

    @Test func trustedCertificateDropsTrustInfo() throws {
        let material = try Self.shared.get()
        #expect(String(decoding: material.trusted, as: UTF8.self).contains("BEGIN TRUSTED CERTIFICATE"))
        let bundle = try CertificateBundle.decode(material.trusted)
        #expect(bundle.certificates.map(\.derEncoded) == [material.der[0]])
        #expect(bundle.notes.count == 1)
        #expect(bundle.notes.first?.contains("trust information") == true)
    }

    @Test func keysAreSkippedNeverCertificates() throws {
        let material = try Self.shared.get()
        let onlyKey = failure(material.key)
        #expect(onlyKey?.code == .noCertificate)
        #expect(onlyKey?.message == "no certificate found (only a PRIVATE KEY block)")
        let ecKey = Array(PEM.encode([0x30, 0x00], label: "EC PRIVATE KEY").utf8)
        #expect(failure(ecKey + ecKey)?.message == "no certificate found (only 2 EC PRIVATE KEY blocks)")
        let mixed = try CertificateBundle.decode(material.key + material.pem[1])
        #expect(mixed.certificates.map(\.derEncoded) == [material.der[1]])
        #expect(mixed.skippedBlocks == ["PRIVATE KEY"])
        let request = Array(PEM.encode([0x30, 0x00], label: "CERTIFICATE REQUEST").utf8)
        #expect(failure(material.key + request)?.message
            == "no certificate found (only a PRIVATE KEY block and a CERTIFICATE REQUEST block)")
    }

    @Test func rejectsEmptyJunkAndTrailingData() throws {
        let material = try Self.shared.get()
        #expect(failure([])?.code == .empty)
        #expect(failure(Array(" \n\t\r\n".utf8))?.code == .empty)
        #expect(failure(Array("hello, world\n".utf8))?.code == .unsupportedFormat)
        #expect(failure([0x00, 0xFF, 0x13, 0x37])?.code == .malformedDER)
        #expect(failure([0x30, 0x03, 0x02, 0x01, 0x01])?.code == .malformedDER)
        let trailing = failure(material.der[0] + [0xDE, 0xAD])
        #expect(trailing?.code == .malformedDER)
        #expect(trailing?.message.hasPrefix("trailing data after DER certificate 1") == true)
        #expect(failure(material.crlDER)?.code == .noCertificate)
        let pemWithTrailing = Array(PEM.encode(material.der[0] + [0x05, 0x00]).utf8)
        #expect(failure(pemWithTrailing)?.message.hasPrefix("PEM block 1 (CERTIFICATE): ") == true)
    }

    @Test func parsesCRL() throws {
        let material = try Self.shared.get()
        let crl = try CertificateRevocationList(derEncoded: material.crlDER)
        let issuer = try Certificate(derEncoded: material.der[0])
        #expect(crl.issuer == issuer.subject)
        let revoked = try Certificate(derEncoded: material.der[1])
        #expect(crl.revokedSerialNumbers == [revoked.serialNumber])
        let nextUpdate = try #require(crl.nextUpdate)
        #expect(abs(nextUpdate.timeIntervalSince(crl.thisUpdate) - 30 * 86_400) < 5)
        #expect(crl.authorityKeyIdentifier == issuer.extensions.subjectKeyIdentifier)
        #expect(throws: CertificateDecodingError.self) { try CertificateRevocationList(derEncoded: material.crlDER + [0]) }
    }
}
