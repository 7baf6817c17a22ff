import CertKitTestSupport
import Foundation

/// A PKI made with the openssl command line at test time, because its authorityInfoAccess URLs name the port of
/// a loopback server started by the test: Root → Int → leaf (CN=leaf.example), EC P-256, valid from now for a year.
/// The leaf's caIssuers is `leafIssuerURL`; the intermediate's is `intIssuerURL` when given; the leaf names
/// `ocspURL` as its OCSP responder and `crlURL` as its CRL distribution point when given.
struct NetworkTestPKI {
    let pki: TestPKI
    var directory: TemporaryDirectory { pki.directory }
    var root: String { directory.file("root.pem") }
    var intermediate: String { directory.file("int.pem") }
    var intermediateDER: String { directory.file("int.der") }
    var leaf: String { directory.file("leaf.pem") }
    /// A certificate of another CA (CN=Unrelated), DER.
    var unrelatedDER: String { directory.file("unrelated.der") }

    init(leafIssuerURL: String, intIssuerURL: String? = nil, ocspURL: String? = nil, crlURL: String? = nil) throws {
        pki = try TestPKI(prefix: "certkit-cli-tests")
        var extensions = """
            [ca]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            [int]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid

            """
        if let intIssuerURL { extensions += "authorityInfoAccess = caIssuers;URI:\(intIssuerURL)\n" }
        extensions += """
            [leaf]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:leaf.example
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            authorityInfoAccess = caIssuers;URI:\(leafIssuerURL)\(ocspURL.map { ",OCSP;URI:\($0)" } ?? "")

            """
        if let crlURL { extensions += "crlDistributionPoints = URI:\(crlURL)\n" }
        try directory.write("ext.cnf", Array(extensions.utf8))
        for name in ["root", "int", "leaf", "unrelated"] { try pki.makeKey(name, "ec:P-256") }
        for (name, subject) in [("root", "/CN=Network Test Root"), ("unrelated", "/CN=Unrelated")] {
            try run(["req", "-new", "-x509", "-key", "\(name).key", "-subj", subject, "-days", "365", "-sha256",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                     "-out", "\(name).pem"])
        }
        try pki.issue("int", subject: "/CN=Network Test Int", issuer: "root", extensionFile: "ext.cnf", section: "int",
                      serial: "2", days: 300)
        try pki.issue("leaf", subject: "/CN=leaf.example", issuer: "int", extensionFile: "ext.cnf", section: "leaf",
                      serial: "3", days: 300)
        try run(["x509", "-in", "int.pem", "-outform", "DER", "-out", "int.der"])
        try run(["x509", "-in", "unrelated.pem", "-outform", "DER", "-out", "unrelated.der"])
    }

    private func run(_ arguments: [String]) throws { try pki.openssl(arguments) }

    /// Writes the intermediate's database (`index.txt`, as `openssl ocsp -index` and `openssl ca` read it) with
    /// the leaf valid or revoked (on 2025-01-01, for `reason` when given: `keyCompromise`, ...), and its CRL
    /// (`int.crl.der`, 30 days) listing the leaf when revoked.
    func writeIntermediateDatabase(leafRevoked: Bool, reason: String? = nil) throws {
        let status = leafRevoked ? "R\t301231000000Z\t250101000000Z" + (reason.map { ",\($0)" } ?? "") : "V\t301231000000Z\t"
        try directory.write("index.txt", Array("\(status)\t03\tunknown\t/CN=leaf.example\n".utf8))
        try directory.write("crlnumber", Array("01\n".utf8))
        let config = """
            [ca]
            default_ca = int
            [int]
            database = index.txt
            crlnumber = crlnumber
            default_md = sha256
            default_crl_days = 30

            """
        try directory.write("ca.cnf", Array(config.utf8))
        try run(["ca", "-config", "ca.cnf", "-gencrl", "-keyfile", "int.key", "-cert", "int.pem", "-out", "int.crl.pem"])
        try run(["crl", "-in", "int.crl.pem", "-outform", "DER", "-out", "int.crl.der"])
    }

    /// Writes `ocsp-unknown.der`: an OCSP response signed by the intermediate that answers `unknown` for the leaf
    /// (made by `openssl ocsp` from a database that does not list it).
    func writeUnknownOCSPResponse() throws {
        try directory.write("empty-index.txt", [])
        try run(["ocsp", "-issuer", "int.pem", "-cert", "leaf.pem", "-no_nonce", "-reqout", "leaf.req"])
        try run(["ocsp", "-index", "empty-index.txt", "-CA", "int.pem", "-rsigner", "int.pem", "-rkey", "int.key",
                 "-reqin", "leaf.req", "-respout", "ocsp-unknown.der", "-ndays", "1"])
    }

    /// Writes `name`: an OCSP response about the leaf (good, or revoked with `leafRevoked`), made by `openssl ocsp`
    /// from the intermediate's database (call ``writeIntermediateDatabase(leafRevoked:)`` first), signed by the
    /// intermediate, or by `signer` (a certificate and key of the directory, sent in the response); nextUpdate
    /// `days` after thisUpdate, or none when nil.
    func writeOCSPResponse(_ name: String, signer: String = "int", days: Int? = 1) throws {
        try run(["ocsp", "-issuer", "int.pem", "-cert", "leaf.pem", "-no_nonce", "-reqout", "leaf.req"])
        try run(["ocsp", "-index", "index.txt", "-CA", "int.pem", "-rsigner", "\(signer).pem", "-rkey", "\(signer).key",
                 "-reqin", "leaf.req", "-respout", name] + (days.map { ["-ndays", "\($0)"] } ?? []))
    }

    /// Writes a delegated OCSP responder certificate `name`.pem (CA:FALSE, OCSPSigning) for the intermediate's name:
    /// issued by the intermediate, or with `forged`, by a rogue CA that copies the intermediate's name with a key
    /// of its own (a responder anyone could mint).
    func writeResponder(_ name: String, forged: Bool) throws {
        let extensions = """
            [responder]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = OCSPSigning

            """
        try directory.write("\(name).cnf", Array(extensions.utf8))
        var issuer = "int"
        if forged {
            issuer = "rogue-int"
            try pki.makeKey("rogue-int", "ec:P-256")
            try run(["req", "-new", "-x509", "-key", "rogue-int.key", "-subj", "/CN=Network Test Int", "-days", "365",
                     "-sha256", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
                     "-out", "rogue-int.pem"])
        }
        try pki.makeKey(name, "ec:P-256")
        try run(["req", "-new", "-key", "\(name).key", "-subj", "/CN=Network Test Responder", "-out", "\(name).csr"])
        try run(["x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key",
                 "-set_serial", "9", "-days", "300", "-sha256", "-extfile", "\(name).cnf", "-extensions", "responder",
                 "-out", "\(name).pem"])
    }

    /// Writes `name`: a CRL of the intermediate (`openssl ca -gencrl`, 30 days) from its database as it stands.
    func writeIntermediateCRL(_ name: String) throws {
        try run(["ca", "-config", "ca.cnf", "-gencrl", "-keyfile", "int.key", "-cert", "int.pem", "-out", name])
    }

    /// The bytes of a file of the PKI.
    func bytes(_ path: String) throws -> [UInt8] { try FixtureLocator.bytes(path) }
}
