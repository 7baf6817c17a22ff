@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// certkit's SCT verification compared with OpenSSL's own Certificate Transparency code (`SCT_validate`, through
/// Tests/CTDifferential/sct_validate.c, compiled with `cc` at run time): for SCTs that are genuine, forged (a
/// signature byte, the timestamp or the extensions changed after signing), from a log the store does not hold, or
/// made for another certificate, embedded (precertificate entries) and sent by TLS (x509 entries), from ECDSA and
/// RSA logs, every SCT gets the same verdict from both, on both backends.
@Suite("Certificate Transparency: certkit and OpenSSL's SCT_validate agree")
struct CTDifferentialTests {
    /// The reference program, built once.
    static let validator: Result<(directory: TemporaryDirectory, binary: String), any Error> = Result {
        let directory = try TemporaryDirectory(prefix: "certkit-sct-validate")
        let binary = directory.file("sct_validate")
        let source = FixtureLocator.url("Tests/CTDifferential/sct_validate.c").path
        try ProcessRunner.check(["cc", "-O1", "-o", binary, source, "-lcrypto"])
        return (directory, binary)
    }

    /// One kind of damage done to an SCT after it was signed.
    enum Damage: CaseIterable { case none, signature, timestamp, extensions, logID }

    static func damaged(_ sct: SignedCertificateTimestamp, _ damage: Damage) -> SignedCertificateTimestamp {
        var changed = sct
        switch damage {
        case .none: break
        case .signature: changed.signature[changed.signature.count - 5] ^= 0x10
        case .timestamp: changed.timestamp += 1
        case .extensions: changed.extensions = [0x00]
        case .logID: changed.logID[0] ^= 0xFF
        }
        return changed
    }

    @Test("every SCT gets OpenSSL's verdict", arguments: BackendRegistry.standard.names)
    func sameVerdicts(backend name: String) throws {
        let binary = try Self.validator.get().binary
        let pki = try CTTestPKI.shared.get()
        let backend = ConcurrencyFixtures.backend(name)
        let names = ["a1", "a2", "b1", "b2"]
        let logs = try CertificateTransparencyTests.logs(pki)
        var store = "enabled_logs = " + names.joined(separator: ",") + "\n"
        for name in names { store += "[\(name)]\ndescription = \(name)\nkey = \(Base64.encode(logs[name]!.spki))\n" }
        let directory = try TemporaryDirectory(prefix: "certkit-ct-diff")
        try directory.write("logs.cnf", Array(store.utf8))
        try directory.write("root.pem", try pki.pki.bytes("root.pem"))
        var compared = 0
        var valid = 0
        for (round, damage) in Damage.allCases.enumerated() {
            let signers = [names[round % 4], names[(round + 1) % 4], "unlisted"]
            let (leaf, date) = try CertificateTransparencyTests.leaf(pki, embedded: signers) { scts in
                scts.enumerated().map { $0.offset == 1 ? Self.damaged($0.element, damage) : $0.element }
            }
            let (other, _) = try CertificateTransparencyTests.leaf(pki, embedded: [])
            let before = leaf.notBefore.addingTimeInterval(-60)
            var tlsSCTs = try signers.map { try pki.x509SCT(logs[$0]!, at: before, for: leaf) }
            tlsSCTs[0] = Self.damaged(tlsSCTs[0], damage)
            tlsSCTs.append(try pki.x509SCT(logs[names[(round + 2) % 4]]!, at: before, for: other))
            let tls = CTTestPKI.list(tlsSCTs)
            try directory.write("leaf.pem", try pki.pki.openssl(["x509", "-inform", "DER", "-outform", "PEM"], input: .bytes(leaf.derEncoded)))
            try directory.write("tls.bin", tls)

            let list = try CertificateTransparencyTests.list(pki, at: date)
            let report = pki.evaluate(leaf, at: date, list: list, profile: .webpki, backend: backend, tls: [tls])
            let certkit = try #require(report.certificateTransparency).scts.map(\.isValid)
            let milliseconds = String(CTTestPKI.milliseconds(date))
            var reference: [Bool] = []
            for mode in [["embedded"], ["tls", directory.file("tls.bin")]] {
                let output = try ProcessRunner.check(
                    [binary, directory.file("leaf.pem"), directory.file("root.pem"), directory.file("logs.cnf"), milliseconds] + mode)
                reference += String(decoding: output, as: UTF8.self).split(separator: "\n").map { $0 == "valid" }
            }
            #expect(certkit == reference, "\(damage): certkit \(certkit), OpenSSL \(reference)")
            compared += reference.count
            valid += reference.filter { $0 }.count
        }
        #expect(compared == Damage.allCases.count * 7)
        // Genuine SCTs from listed logs verify (two embedded, two by TLS in each round, one fewer when damaged).
        #expect(valid == Damage.allCases.count * 4 - (Damage.allCases.count - 1) * 2)
    }
}
