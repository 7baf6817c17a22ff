import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// `connect` captures the SCTs a TLS server sends in its signed_certificate_timestamp extension (`openssl s_server
/// -serverinfo`, TLS 1.2) with the OpenSSL TLS client, and `--ct-log-list` judges them: two SCTs from logs of two
/// operators make the webpki profile's TLS path, none fails it. The root is the run's system root
/// (`SSL_CERT_FILE`), as CT applies only to chains to a system root. Logs, SCTs and the list are made here with the
/// openssl command line (the SCT's signed data written from RFC 6962 §3.2).
@Suite("connect: SCTs from the TLS extension")
struct ConnectCTTests {
    /// The PKI, two logs of two operators, the list, and the serverinfo file carrying the leaf's SCT list.
    final class Setup: Sendable {
        let pki: TestPKI
        init() throws {
            pki = try TestPKI(prefix: "certkit-connect-ct")
            try pki.selfSigned(
                "root", subject: "/CN=CT Connect Root", key: "ec:P-256", days: 3650,
                extensions: ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign"])
            try pki.directory.write("leaf.ext", Array("""
                [leaf]
                subjectAltName=DNS:ct.example
                extendedKeyUsage=serverAuth
                keyUsage=critical,digitalSignature
                basicConstraints=critical,CA:FALSE
                subjectKeyIdentifier=hash
                authorityKeyIdentifier=keyid

                """.utf8))
            try pki.issue(
                "leaf", subject: "/CN=ct.example", issuer: "root", extensionFile: "leaf.ext", section: "leaf",
                serial: "0x4242", days: 90)
            let leafDER = try pki.openssl(["x509", "-in", "leaf.pem", "-outform", "DER"])
            let timestamp = UInt64((Date().timeIntervalSince1970 - 60) * 1000)
            var items: [UInt8] = []
            var logs: [String] = []
            for (name, operatorName) in [("log-a", "A"), ("log-b", "B")] {
                try pki.makeKey(name, "ec:P-256")
                let spki = try pki.openssl(["pkey", "-in", "\(name).key", "-pubout", "-outform", "DER"])
                let logID = try pki.openssl(["dgst", "-sha256", "-binary"], input: .bytes(spki))
                var signed: [UInt8] = [0, 0] + Self.uint64(timestamp) + [0, 0]
                signed += [UInt8(leafDER.count >> 16), UInt8(leafDER.count >> 8 & 0xFF), UInt8(leafDER.count & 0xFF)] + leafDER
                signed += [0, 0]
                let signature = try pki.openssl(["dgst", "-sha256", "-sign", "\(name).key", "-binary"], input: .bytes(signed))
                let sct = [0] + logID + Self.uint64(timestamp) + [0, 0, 4, 3] + Self.length16(signature) + signature
                items += Self.length16(sct)
                logs.append("""
                    {"name": "\(operatorName)", "email": [], "logs": [{"description": "\(name)", \
                    "log_id": "\(Data(logID).base64EncodedString())", "key": "\(Data(spki).base64EncodedString())", \
                    "url": "https://\(name).example/", "mmd": 86400, "state": {"usable": {"timestamp": "2020-01-01T00:00:00Z"}}}]}
                    """)
            }
            let list = Self.length16(items)
            let serverinfo = [0x00, 0x12] + Self.length16(list)
            try pki.directory.write("serverinfo.pem", Array("""
                -----BEGIN SERVERINFO FOR CT-----
                \(Data(serverinfo).base64EncodedString(options: .lineLength64Characters))
                -----END SERVERINFO FOR CT-----

                """.utf8))
            let stamp = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400))
            try pki.directory.write("list.json", Array("""
                {"version": "3", "log_list_timestamp": "\(stamp)", "operators": [\(logs.joined(separator: ", "))]}
                """.utf8))
        }

        static func uint64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) } }
        static func length16(_ bytes: [UInt8]) -> [UInt8] { [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes }
    }

    static let setup = Result { try Setup() }

    static func connect(tls: String, serverinfo: Bool) throws -> (Int32, [String: Any]) {
        let pki = try setup.get().pki
        let server = try TLSTestServer(
            .openssl, certificate: pki.file("leaf.pem"), key: pki.file("leaf.key"), tls12: true,
            extraArguments: serverinfo ? ["-serverinfo", pki.file("serverinfo.pem")] : [])
        defer { server.stop() }
        let run = try BinaryTests.run(
            [
                "connect", "127.0.0.1:\(server.port)", "--servername", "ct.example", "--profile", "webpki",
                "--ct-log-list", pki.file("list.json"), "--tls", tls, "--json",
            ],
            environment: ["SSL_CERT_FILE": pki.file("root.pem")])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any], "\(run.stderr)")
        return (run.code, object)
    }

    @Test("the SCTs of the TLS extension count (the OpenSSL client; the GnuTLS client does not ask for them)")
    func tlsExtension() throws {
        let (code, object) = try Self.connect(tls: "openssl", serverinfo: true)
        #expect(code == 0, "\(object)")
        #expect(object["certificateTransparency"] as? Bool == true)
        let detail = try #require(object["certificateTransparencyDetail"] as? [String: Any])
        let scts = try #require(detail["scts"] as? [[String: Any]])
        #expect(scts.count == 2)
        #expect(scts.allSatisfy { $0["source"] as? String == "tls" && $0["valid"] as? Bool == true })
    }

    @Test("without them the webpki policy fails: SystemTrustedCTRequired, exit 10", arguments: ["openssl", "gnutls"])
    func none(tls: String) throws {
        let (code, object) = try Self.connect(tls: tls, serverinfo: false)
        #expect(code == 10)
        #expect(object["certificateTransparency"] as? Bool == false)
        #expect((object["error"] as? [String: Any])?["check"] as? String == "SystemTrustedCTRequired")
    }
}
