import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// A file of another kind given where a certificate, a CRL or an OCSP response is expected is named for what it is
/// ("a private key (PKCS#8), not a certificate"), recognised by content, whatever its name; made with the openssl
/// command line at test time.
@Suite("wrong-kind inputs are named for what they are")
struct WrongKindInputTests {
    /// The neighbours of a certificate, as DER files, with the phrase each is named by.
    static func neighbours() throws -> (pki: TestPKI, files: [(file: String, kind: DERKind)]) {
        let pki = try TestPKI(prefix: "certkit-wrong-kind")
        let sample = FixtureLocator.sample
        let ocsp = FixtureLocator.fixture("ocsp")
        try pki.makeKey("rsa", "rsa:2048")
        try pki.openssl(["pkcs8", "-topk8", "-nocrypt", "-in", "rsa.key", "-outform", "DER", "-out", "pkcs8.der"])
        try pki.openssl(["rsa", "-in", "rsa.key", "-traditional", "-outform", "DER", "-out", "pkcs1.der"])
        try pki.openssl(["pkcs8", "-topk8", "-in", "rsa.key", "-passout", "pass:x", "-outform", "DER", "-out", "encrypted.der"])
        try pki.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-outform", "DER", "-out", "sec1.der"])
        try pki.openssl(["pkey", "-in", "rsa.key", "-pubout", "-outform", "DER", "-out", "public.der"])
        try pki.openssl(["req", "-new", "-key", "rsa.key", "-subj", "/CN=request", "-outform", "DER", "-out", "csr.der"])
        try pki.openssl(["crl", "-in", "\(ocsp)/crl.pem", "-outform", "DER", "-out", "crl.der"])
        try pki.openssl(["ocsp", "-issuer", "\(ocsp)/ca.pem", "-cert", "\(ocsp)/leaf-good.pem", "-no_nonce", "-reqout", "request.der"])
        try pki.openssl(["pkcs12", "-export", "-in", sample("server.pem"), "-inkey", sample("server.key"),
                         "-passout", "pass:x", "-out", "identity.p12"])
        try pki.openssl(["cms", "-encrypt", "-in", sample("server.pem"), "-outform", "DER", "-out", "enveloped.der", sample("server.pem")])
        try pki.openssl(["x509", "-in", sample("server.pem"), "-outform", "DER", "-out", "certificate.der"])
        // An OCSP error response has a status and no responseBytes (RFC 6960 §4.2.1): tryLater (3).
        _ = try pki.directory.write("ocsp-try-later.der", [0x30, 0x03, 0x0A, 0x01, 0x03])
        let files: [(String, DERKind)] = [
            ("pkcs8.der", .pkcs8PrivateKey), ("pkcs1.der", .rsaPrivateKey), ("encrypted.der", .encryptedPrivateKey),
            ("sec1.der", .ecPrivateKey), ("public.der", .publicKey), ("csr.der", .certificateRequest), ("crl.der", .crl),
            ("request.der", .ocspRequest), ("ocsp-try-later.der", .ocspResponse), ("identity.p12", .pkcs12), ("enveloped.der", .pkcs7("envelopedData")),
        ]
        return (pki, files.map { (pki.file($0.0), $0.1) } + [("\(ocsp)/good.der", .ocspResponse), (pki.file("certificate.der"), .certificate)])
    }

    @Test("as a certificate, a CRL and an OCSP response: one line naming the kind")
    func named() throws {
        let (pki, files) = try Self.neighbours()
        let chain = FixtureLocator.sample("server-chain.pem")
        let anchors = ["--anchors", FixtureLocator.sample("root-ca.pem")]
        for (file, kind) in files {
            #expect(DERKind.identify(try FixtureLocator.bytes(file)) == kind, "\(file)")
            if kind != .certificate {
                for command in [["evaluate"] + anchors, ["inspect"], ["convert", "--to", "pem"]] {
                    let run = certkit(command + [file])
                    #expect(run.code == 1, "\(command) \(file)")
                    // inspect and convert read a PKCS#12 file as such (it needs a password), evaluate names it.
                    if kind == .pkcs12, command != ["evaluate"] + anchors { continue }
                    // A PKCS#7 message that is not signedData is named by its content type.
                    if case .pkcs7 = kind {
                        #expect(run.stderr.contains("is not SignedData"), "\(run.stderr)")
                        continue
                    }
                    #expect(run.stderrLines == ["certkit: \(file): \(kind.description), not a certificate"], "\(command)")
                }
            }
            if kind != .crl {
                let run = certkit(["evaluate"] + anchors + ["--crl", file, chain])
                #expect(run.stderrLines == ["certkit: \(file): \(kind.description), not a CRL"])
            }
            if kind != .ocspResponse {
                let run = certkit(["evaluate"] + anchors + ["--ocsp-response", file, chain])
                #expect(run.stderrLines == ["certkit: \(file): \(kind.description), not an OCSP response"])
            }
        }
        // A PEM file given as an OCSP response says what it holds.
        let pem = certkit(["evaluate"] + anchors + ["--ocsp-response", FixtureLocator.sample("server.pem"), chain])
        #expect(pem.code == 1)
        #expect(pem.stderr.contains("a PEM CERTIFICATE block, not an OCSP response"), "\(pem.stderr)")
        _ = pki
    }

    @Test("truncated and corrupted neighbours never crash and never read past their bytes")
    func bounded() throws {
        let (pki, files) = try Self.neighbours()
        var generator = SystemRandomNumberGenerator()
        for (file, _) in files {
            let bytes = try FixtureLocator.bytes(file)
            for length in stride(from: 0, through: bytes.count, by: max(1, bytes.count / 64)) {
                _ = DERKind.identify(Array(bytes.prefix(length)))
            }
            for _ in 0..<64 {
                var corrupted = bytes
                corrupted[Int.random(in: 0..<corrupted.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                _ = DERKind.identify(corrupted)
            }
        }
        // Deep nesting and huge lengths are refused by the bounded reader.
        #expect(DERKind.identify(Array(repeating: 0x30, count: 10_000) + [0x00]) == nil)
        #expect(DERKind.identify([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0x01, 0x00]) == nil)
        #expect(DERKind.identify([]) == nil)
        _ = pki
    }
}
