import CertKit
import CertKitTestSupport
import Foundation

/// The certificates of the `certkit lint` tests, made with the openssl command line at run time (validity from
/// now): a chain that meets every rule of every profile (root → int → leaf, CN and SAN leaf.example), and
/// variants that break exactly one target's rules, or five rules at once.
struct LintTestPKI {
    let pki: TestPKI
    var directory: TemporaryDirectory { pki.directory }

    /// A serial of 16 octets, positive: no issuance finding about serials.
    static func serial(_ number: Int) -> String { "0x4f1e2d3c4b5a69788796a5b4c3d2e1" + String(format: "%02x", number) }

    init() throws {
        pki = try TestPKI(prefix: "certkit-lint-tests")
        let extensions = """
            [req]
            distinguished_name = dn
            [dn]
            [root]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            [int]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            authorityInfoAccess = caIssuers;URI:http://127.0.0.1:9/root.der
            crlDistributionPoints = URI:http://127.0.0.1:9/root.crl
            [int-missing-issuer]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            authorityInfoAccess = caIssuers;URI:http://127.0.0.1:9/int2.der
            crlDistributionPoints = URI:http://127.0.0.1:9/int2.crl
            [int-nc-not-critical]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            authorityInfoAccess = caIssuers;URI:http://127.0.0.1:9/root.der
            crlDistributionPoints = URI:http://127.0.0.1:9/root.crl
            nameConstraints = permitted;DNS:leaf.example
            [int-nc-dirname]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            authorityInfoAccess = caIssuers;URI:http://127.0.0.1:9/root.der
            crlDistributionPoints = URI:http://127.0.0.1:9/root.crl
            nameConstraints = critical, excluded;dirName:excluded_name
            [excluded_name]
            CN = Excluded Name
            [leaf]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:leaf.example
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            authorityInfoAccess = caIssuers;URI:http://127.0.0.1:9/int.der, OCSP;URI:http://127.0.0.1:9/ocsp
            crlDistributionPoints = URI:http://127.0.0.1:9/int.crl
            [leaf-client-only]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = clientAuth
            subjectAltName = DNS:leaf.example
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            authorityInfoAccess = caIssuers;URI:http://127.0.0.1:9/int1.der, OCSP;URI:http://127.0.0.1:9/ocsp
            crlDistributionPoints = URI:http://127.0.0.1:9/int1.crl

            """
        try directory.write("ext.cnf", Array(extensions.utf8))
        for name in ["root", "int", "int1", "int2", "int-ncnc", "int-dirname", "leaf"] { try pki.makeKey(name, "ec:P-256") }
        try pki.openssl([
            "req", "-x509", "-new", "-key", "root.key", "-subj", "/CN=Lint Test Root", "-days", "3650", "-sha256",
            "-set_serial", Self.serial(1), "-config", "ext.cnf", "-extensions", "root", "-out", "root.pem",
        ])
        try issue("int", subject: "/CN=Lint Test Int", issuer: "root", section: "int", days: 1800, serial: 2)
        try issue("leaf", subject: "/CN=leaf.example", issuer: "int", section: "leaf", days: 90, serial: 3)
        // One target's rules each.
        try issue("leaf-826", subject: "/CN=leaf.example", issuer: "int", section: "leaf", days: 826, serial: 4, key: "leaf")
        try issue("leaf-cn", subject: "/CN=www.leaf.example", issuer: "int", section: "leaf", days: 90, serial: 5, key: "leaf")
        try issue("int-ncnc", subject: "/CN=Lint Test Int NC", issuer: "root", section: "int-nc-not-critical",
                  days: 1800, serial: 6)
        try issue("leaf-ncnc", subject: "/CN=leaf.example", issuer: "int-ncnc", section: "leaf", days: 90, serial: 7, key: "leaf")
        try issue("int-dirname", subject: "/CN=Lint Test Int DirName", issuer: "root", section: "int-nc-dirname",
                  days: 1800, serial: 8)
        try issue("leaf-dirname", subject: "/CN=leaf.example", issuer: "int-dirname", section: "leaf", days: 90,
                  serial: 9, key: "leaf")
        // Five problems: root → int2 (not sent) → int1 (SHA-1, names int2 at its caIssuers URL) → a 500-day leaf for
        // clientAuth only.
        try issue("int2", subject: "/CN=Lint Test Int 2", issuer: "root", section: "int", days: 1800, serial: 10)
        try issue("int1", subject: "/CN=Lint Test Int 1 SHA-1", issuer: "int2", section: "int-missing-issuer",
                  days: 1800, serial: 11, digest: "sha1")
        try issue("leaf-five", subject: "/CN=leaf.example", issuer: "int1", section: "leaf-client-only", days: 500,
                  serial: 12, key: "leaf")
        // The intermediate again, same name and key, signed with SHA-1: a second candidate path.
        try issue("int-sha1", subject: "/CN=Lint Test Int", issuer: "root", section: "int", days: 1800, serial: 13,
                  key: "int", digest: "sha1")
        try chain("control.pem", ["leaf", "int"])
        try chain("two-paths.pem", ["leaf", "int-sha1", "int"])
        try chain("apple-only.pem", ["leaf-826", "int"])
        try chain("webpki-only.pem", ["leaf-cn", "int"])
        try chain("rfc5280-only.pem", ["leaf-ncnc", "int-ncnc"])
        try chain("gnutls-only.pem", ["leaf-dirname", "int-dirname"])
        try chain("five.pem", ["leaf-five", "int1"])
    }

    /// Writes `name`.pem issued by `issuer` with the extensions of `section`, for the key `key`.key (`name`.key by
    /// default), signed with `digest`.
    private func issue(
        _ name: String, subject: String, issuer: String, section: String, days: Int, serial: Int,
        key: String? = nil, digest: String = "sha256"
    ) throws {
        let keyName = key ?? name
        try pki.openssl(["req", "-new", "-key", "\(keyName).key", "-subj", subject, "-config", "ext.cnf", "-out", "\(name).csr"])
        try pki.openssl([
            "x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key", "-set_serial",
            Self.serial(serial), "-days", "\(days)", "-\(digest)", "-extfile", "ext.cnf", "-extensions", section,
            "-out", "\(name).pem",
        ])
    }

    /// Writes the PEM files `parts` one after the other into `name`.
    private func chain(_ name: String, _ parts: [String]) throws {
        let bytes = try parts.flatMap { try pki.bytes("\($0).pem") }
        try directory.write(name, bytes)
    }

    /// The path of a file of the PKI.
    func file(_ name: String) -> String { directory.file(name) }

    /// The first certificate of `name`.
    func certificate(_ name: String) throws -> Certificate { try pki.certificates(name)[0] }
}
