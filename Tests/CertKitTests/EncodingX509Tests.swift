@testable import CertKit
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

/// Certificate fields against what the openssl CLI reports for certificates it made.
@Suite struct EncodingX509Tests {
    struct Made {
        let certificate: Certificate
        /// `openssl x509 -noout -subject -nameopt RFC2253 -serial -ext subjectAltName -text` output.
        let opensslText: String
    }

    static func make(name: String, key: String = "rsa:2048", subject: String = "/CN=test.example/O=Example Org/C=US",
                     extensions: [String] = [], extraFlags: String = "") throws -> Made {
        let pki = try TestPKI(prefix: "certkit-encoding")
        let pem = try pki.selfSigned(name, subject: subject, key: key, extensions: extensions)
        let text = try EncodingTestSupport.openssl("x509 -in '\(pem.path)' -noout -subject -nameopt RFC2253 -serial -startdate -enddate -dateopt iso_8601 -text \(extraFlags)")
        let bundle = try CertificateBundle.decode(EncodingTestSupport.read(pem))
        return Made(certificate: try #require(bundle.certificates.first), opensslText: text)
    }

    static func field(_ name: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    static func keyBits(in text: String) -> Int? {
        guard let range = text.range(of: #"Public-Key: \((\d+) bit\)"#, options: .regularExpression) else { return nil }
        return Int(text[range].filter(\.isNumber))
    }

    @Test func richCertificateMatchesOpenSSL() throws {
        let made = try Self.make(name: "rich", extensions: [
            "subjectAltName=DNS:www.example.com,DNS:*.example.org,IP:192.0.2.7,IP:2001:db8::1,email:ops@example.com,URI:https://example.com/x",
            "basicConstraints=critical,CA:TRUE,pathlen:2",
            "keyUsage=critical,digitalSignature,keyCertSign,cRLSign",
            "extendedKeyUsage=serverAuth,clientAuth,1.2.3.4.5",
            "nameConstraints=critical,permitted;DNS:.example.com,permitted;IP:10.0.0.0/255.0.0.0,excluded;IP:2001:db8::/ffff:ffff::,excluded;email:bad.example",
            "crlDistributionPoints=URI:http://crl.example.com/ca.crl",
            "authorityInfoAccess=OCSP;URI:http://ocsp.example.com,caIssuers;URI:http://ca.example.com/ca.crt",
            "certificatePolicies=2.23.140.1.2.1,1.3.6.1.4.1.99999.1",
            "1.3.6.1.4.1.99999.7=ASN1:UTF8String:hello",
        ], extraFlags: "")
        let certificate = made.certificate
        let ext = certificate.extensions
        #expect(certificate.version == 3)
        #expect(certificate.subject.description == Self.field("subject", in: made.opensslText))
        #expect(EncodingSystemBundleTests.opensslSerial(certificate.serialNumber) == Self.field("serial", in: made.opensslText))
        #expect(EncodingSystemBundleTests.isoDate(certificate.notBefore) == Self.field("notBefore", in: made.opensslText))
        #expect(EncodingSystemBundleTests.isoDate(certificate.notAfter) == Self.field("notAfter", in: made.opensslText))
        #expect(certificate.publicKey.algorithm == .rsa(modulusBits: 2048))
        #expect(Self.keyBits(in: made.opensslText) == 2048)
        #expect(certificate.signatureAlgorithm.name == "sha256WithRSAEncryption")
        #expect(certificate.signatureAlgorithm.hash == .sha256)
        #expect(certificate.signatureBytes.count == 256)
        #expect(certificate.isSelfIssued)

        let san = try #require(ext.subjectAlternativeNames)
        #expect(san.count == 6)
        #expect(san == [
            .dnsName("www.example.com"), .dnsName("*.example.org"), .ipAddress([192, 0, 2, 7]),
            .ipAddress([0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]),
            .email("ops@example.com"), .uri("https://example.com/x"),
        ])
        let opensslSAN = made.opensslText.components(separatedBy: "X509v3 Subject Alternative Name:")[1]
            .split(separator: "\n")[1].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "IP Address:", with: "IP:")
        #expect(opensslSAN.hasPrefix(san.prefix(3).map(\.description).joined(separator: ", ")))
        #expect(san[3].description == "IP:2001:db8::1")

        #expect(ext.basicConstraints == BasicConstraints(isCA: true, pathLength: 2))
        #expect(ext.keyUsage == [.digitalSignature, .keyCertSign, .cRLSign])
        #expect(ext.keyUsage?.names == ["digitalSignature", "keyCertSign", "cRLSign"])
        #expect(ext.extendedKeyUsage == [ExtendedKeyUsageOID.serverAuth, ExtendedKeyUsageOID.clientAuth, "1.2.3.4.5"])
        let constraints = try #require(ext.nameConstraints)
        #expect(constraints.permitted == [.dnsName(".example.com"), .ipAddress([10, 0, 0, 0, 255, 0, 0, 0])])
        #expect(constraints.excluded.count == 2)
        #expect(constraints.excluded.first?.description == "IP:2001:db8::/ffff:ffff::")
        #expect(constraints.excluded.last == .email("bad.example"))
        #expect(ext.crlDistributionPoints == [.uri("http://crl.example.com/ca.crl")])
        #expect(ext.authorityInfoAccess == [
            AccessDescription(method: "1.3.6.1.5.5.7.48.1", location: .uri("http://ocsp.example.com")),
            AccessDescription(method: "1.3.6.1.5.5.7.48.2", location: .uri("http://ca.example.com/ca.crt")),
        ])
        #expect(ext.certificatePolicies == ["2.23.140.1.2.1", "1.3.6.1.4.1.99999.1"])
        #expect(ext.subjectKeyIdentifier?.count == 20)
        #expect(ext.authorityKeyIdentifier == ext.subjectKeyIdentifier)
        #expect(ext.malformed.isEmpty)
        #expect(ext.duplicates.isEmpty)
        let unknown = try #require(ext.all.first { $0.oid == "1.3.6.1.4.1.99999.7" })
        #expect(unknown.value == [0x0C, 0x05] + Array("hello".utf8))
        #expect(!unknown.isCritical)
        #expect(ext.all.first { $0.oid == ExtensionOID.basicConstraints }?.isCritical == true)
        #expect(ext.unknownCritical.isEmpty)
        #expect(Hex.encode(try OpenSSLBackend().digest(.sha256, of: certificate.derEncoded))
            == (try EncodingTestSupport.openssl("dgst -sha256 -r", input: certificate.derEncoded)).prefix(64).description)
    }

    @Test(arguments: [
        ("ec:prime256v1", PublicKeyInfo.Algorithm.ec(curve: "prime256v1", bits: 256)),
        ("ec:secp384r1", .ec(curve: "secp384r1", bits: 384)),
        ("ec:secp521r1", .ec(curve: "secp521r1", bits: 521)),
        ("ec:secp256k1", .ec(curve: "secp256k1", bits: 256)),
        ("rsa:1024", .rsa(modulusBits: 1024)),
        ("rsa:3072", .rsa(modulusBits: 3072)),
        ("ed25519", .ed25519),
    ])
    func keyAlgorithms(key: String, expected: PublicKeyInfo.Algorithm) throws {
        let made = try Self.make(name: "key", key: key)
        #expect(made.certificate.publicKey.algorithm == expected)
        if let bits = Self.keyBits(in: made.opensslText) {
            #expect(made.certificate.publicKey.keySizeBits == bits)
        }
        let spki = try EncodingTestSupport.shell("openssl x509 -pubkey -noout | openssl pkey -pubin -outform DER",
                                                 input: Array(PEM.encode(made.certificate.derEncoded).utf8))
        #expect(made.certificate.publicKey.derEncoded == spki)
    }

    @Test func namesMatchOpenSSLRFC2253() throws {
        let subjects = [
            "/C=US/ST=New York/L=Brooklyn/O=Comma\\, Inc./OU=R+D/CN=  padded name /emailAddress=a@b.example",
            "/DC=org/DC=example/CN=#hash;semi<angle>\"quote\"\\\\back",
            "/CN=Zo\u{00EB} M\u{00FC}ller/O=\u{65E5}\u{672C}",
            "/1.2.3.4.5=custom/serialNumber=1234/CN=x",
        ]
        for subject in subjects {
            let made = try Self.make(name: "name", key: "ec:prime256v1", subject: subject, extraFlags: "")
            let expected = EncodingSystemBundleTests.unescapeHighBytes(Self.field("subject", in: made.opensslText) ?? "?")
            #expect(made.certificate.subject.description == expected, "\(subject)")
        }
    }

    @Test func multiValuedRDN() throws {
        let temporary = try TemporaryDirectory(prefix: "certkit-encoding")
        let directory = temporary.url
        let pem = directory.appendingPathComponent("m.pem")
        try EncodingTestSupport.shell("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout '\(directory.path)/m.key' -multivalue-rdn -subj '/O=Org/CN=a+UID=b' -out '\(pem.path)' 2>/dev/null")
        let certificate = try #require(try CertificateBundle.decode(EncodingTestSupport.read(pem)).certificates.first)
        let expected = try EncodingTestSupport.openssl("x509 -in '\(pem.path)' -noout -subject -nameopt RFC2253")
        #expect("subject=" + certificate.subject.description == expected.trimmingCharacters(in: .newlines))
        #expect(certificate.subject.relativeNames.map(\.count) == [1, 2])
    }
}
