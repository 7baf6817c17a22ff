@testable import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// The demo PKI in Samples/, checked against the openssl CLI.
@Suite struct EncodingSamplesTests {
    static let samples = FixtureLocator.samples

    static let files = ["root-ca.pem", "intermediate-ca.pem", "server.pem", "self-signed.pem", "expired.pem", "wrong-host.pem"]

    @Test(.enabled(if: FileManager.default.fileExists(atPath: samples.appendingPathComponent("server.pem").path)),
          arguments: files)
    func matchesOpenSSL(file: String) throws {
        let path = Self.samples.appendingPathComponent(file).path
        let text = try EncodingTestSupport.openssl("x509 -in '\(path)' -noout -subject -issuer -nameopt RFC2253 -serial -startdate -enddate -dateopt iso_8601 -ext subjectAltName -text")
        let bundle = try CertificateBundle.decode(EncodingTestSupport.read(URL(fileURLWithPath: path)))
        let certificate = try #require(bundle.certificates.first)
        #expect(bundle.certificates.count == 1)
        #expect("subject=" + certificate.subject.description == line("subject", text))
        #expect("issuer=" + certificate.issuer.description == line("issuer", text))
        #expect("serial=" + EncodingSystemBundleTests.opensslSerial(certificate.serialNumber) == line("serial", text))
        #expect("notBefore=" + EncodingSystemBundleTests.isoDate(certificate.notBefore) == line("notBefore", text))
        #expect("notAfter=" + EncodingSystemBundleTests.isoDate(certificate.notAfter) == line("notAfter", text))
        if let bits = EncodingX509Tests.keyBits(in: text) { #expect(certificate.publicKey.keySizeBits == bits) }
        if let san = certificate.extensions.subjectAlternativeNames {
            let rendered = san.map { $0.description.replacingOccurrences(of: "IP:", with: "IP Address:") }
            let opensslSAN = text.components(separatedBy: "X509v3 Subject Alternative Name:").dropFirst().first?
                .split(separator: "\n").dropFirst().first?.trimmingCharacters(in: .whitespaces)
            if san.allSatisfy({ if case .ipAddress(let b) = $0 { b.count == 4 } else { true } }) {
                #expect(rendered.joined(separator: ", ") == opensslSAN)
            }
        }
        let der = try EncodingTestSupport.shell("openssl x509 -in '\(path)' -outform DER")
        #expect(certificate.derEncoded == der)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: samples.appendingPathComponent("server-chain.pem").path)))
    func chainAndKeys() throws {
        let chain = try CertificateBundle.decode(EncodingTestSupport.read(Self.samples.appendingPathComponent("server-chain.pem")))
        #expect(chain.certificates.count >= 2)
        #expect(chain.certificates[0].issuer.matches(chain.certificates[1].subject))
        #expect(chain.certificates[0].extensions.authorityKeyIdentifier == chain.certificates[1].extensions.subjectKeyIdentifier)
        let key = try EncodingTestSupport.read(Self.samples.appendingPathComponent("server.key"))
        #expect(throws: CertificateDecodingError(.noCertificate, "no certificate found (only a PRIVATE KEY block)")) {
            try CertificateBundle.decode(key)
        }
    }

    private func line(_ name: String, _ text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(name + "=") }.map(String.init)
    }
}
