@testable import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// Every certificate of the system CA bundle, checked against the openssl CLI (run once over the bundle).
@Suite(.serialized) struct EncodingSystemBundleTests {
    /// The bundle split into one PEM and one `openssl x509 -outform DER` file per certificate, and a summary
    /// line set per certificate (subject RFC 2253, serial, dates).
    struct OpenSSLView {
        var der: [[UInt8]] = []
        var summaries: [[String: String]] = []
    }

    /// Computed once for the suite: the openssl CLI runs over the bundle a single time.
    static let shared = Result { try opensslView() }

    static func opensslView() throws -> OpenSSLView {
        let temporary = try TemporaryDirectory(prefix: "certkit-encoding")
        let directory = temporary.url
        let script = """
            cd '\(directory.path)' && awk '/-----BEGIN CERTIFICATE-----/ { n++; file = sprintf("c%04d.pem", n) } \
            file { print > file } /-----END CERTIFICATE-----/ { close(file); file = "" }' \
            '\(EncodingTestSupport.systemBundlePath)' && for f in c*.pem; do \
            openssl x509 -in "$f" -outform DER -out "${f%.pem}.der" && \
            openssl x509 -in "$f" -noout -subject -issuer -nameopt RFC2253 -serial -startdate -enddate -dateopt iso_8601 \
            > "${f%.pem}.txt"; done
            """
        try EncodingTestSupport.shell(script)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".der") }.sorted()
        var view = OpenSSLView()
        for name in names {
            view.der.append(try EncodingTestSupport.read(directory.appendingPathComponent(name)))
            let text = try String(contentsOf: directory.appendingPathComponent(name.replacingOccurrences(of: ".der", with: ".txt")), encoding: .utf8)
            var summary: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                summary[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            view.summaries.append(summary)
        }
        return view
    }

    /// OpenSSL's RFC 2253 output escapes UTF-8 bytes as `\XX`; turn those back into text, except for the
    /// scalars certkit keeps escaped (``DisplayText/needsEscaping(_:)``: C1 controls, bidi and other format
    /// characters), which stay as hex pairs of their UTF-8 bytes.
    static func unescapeHighBytes(_ text: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "\\"), index + 1 < source.count, source[index + 1] == UInt8(ascii: "\\") {
                bytes += [source[index], source[index + 1]]
                index += 2
            } else if source[index] == UInt8(ascii: "\\"), index + 2 < source.count,
               let value = UInt8(String(decoding: source[(index + 1)...(index + 2)], as: UTF8.self), radix: 16),
               value >= 0x80 {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        var out = ""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar.value >= 0x80 && DisplayText.needsEscaping(scalar) {
                out += String(scalar).utf8.map { "\\" + String($0, radix: 16, uppercase: true) }.joined()
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func isoDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        return formatter.string(from: date)
    }

    static func opensslSerial(_ bytes: [UInt8]) -> String {
        var magnitude = bytes
        if magnitude.count > 1 && magnitude[0] == 0 { magnitude.removeFirst() }
        return Hex.encode(magnitude).uppercased()
    }

    @Test func derMatchesOpenSSLAndRoundTrips() throws {
        let bundleBytes = try EncodingTestSupport.read(URL(fileURLWithPath: EncodingTestSupport.systemBundlePath))
        let bundle = try CertificateBundle.decode(bundleBytes)
        #expect(bundle.format == .pem)
        let view = try Self.shared.get()
        #expect(bundle.certificates.count == view.der.count)
        #expect(bundle.certificates.count > 50)
        for (certificate, opensslDER) in zip(bundle.certificates, view.der) {
            #expect(certificate.derEncoded == opensslDER, "\(certificate)")
            let pem = PEM.encode(certificate.derEncoded)
            let again = try PEM.decode(Array(pem.utf8))
            #expect(again.count == 1)
            #expect(again.first?.bytes == opensslDER)
            #expect(PEM.encode(again.first?.bytes ?? []) == pem)
            let reparsed = try Certificate(derEncoded: opensslDER)
            #expect(reparsed == certificate)
        }
        // Concatenated DER of the whole bundle decodes to the same certificates.
        let concatenated = try CertificateBundle.decode(view.der.flatMap { $0 })
        #expect(concatenated.format == .derSequence)
        #expect(concatenated.certificates == bundle.certificates)
    }

    @Test func fieldsMatchOpenSSL() throws {
        let certificates = try EncodingTestSupport.systemCertificates()
        let view = try Self.shared.get()
        for (certificate, summary) in zip(certificates, view.summaries) {
            #expect(certificate.subject.description == Self.unescapeHighBytes(summary["subject"] ?? "?"))
            #expect(certificate.issuer.description == Self.unescapeHighBytes(summary["issuer"] ?? "?"))
            #expect(Self.opensslSerial(certificate.serialNumber) == summary["serial"])
            #expect(Self.isoDate(certificate.notBefore) == summary["notBefore"])
            #expect(Self.isoDate(certificate.notAfter) == summary["notAfter"])
            #expect(certificate.version == 3 || certificate.version == 1)
            #expect(certificate.extensions.malformed.isEmpty, "\(certificate)")
            #expect(certificate.extensions.duplicates.isEmpty)
            #expect(certificate.publicKey.keySizeBits != nil)
            #expect(certificate.isSelfIssued == (certificate.subject == certificate.issuer))
        }
    }
}
