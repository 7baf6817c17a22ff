import CertKit
import Foundation

/// Test certificates made with the openssl command line at run time, in a ``TemporaryDirectory`` of their own
/// (removed with the value): for tests whose certificates cannot be committed fixtures (URLs naming a port of the
/// test's own server, validity from now, many variants of one recipe).
///
/// The PKI is the files in ``directory``: `NAME.key`, `NAME.pem`, and whatever a recipe writes. Recipes use
/// ``openssl(_:input:)`` and ``runScript(_:)`` (both run in the directory), or the two makers ``selfSigned(_:subject:key:days:digest:extensions:)``
/// and ``issue(_:subject:issuer:extensionFile:section:serial:days:)``.
package final class TestPKI: Sendable {
    /// The directory holding the PKI's files.
    package let directory: TemporaryDirectory

    /// An empty PKI in a fresh `<tmp>/<prefix>-<UUID>` directory.
    package init(prefix: String = "certkit-pki") throws {
        directory = try TemporaryDirectory(prefix: prefix)
    }

    /// A PKI whose files go to `directory`, a test's own (kept as long as the PKI or the test holds it).
    package init(in directory: TemporaryDirectory) {
        self.directory = directory
    }

    /// The path of `name` in the PKI's directory.
    package func file(_ name: String) -> String { directory.file(name) }

    /// The bytes of `name` in the PKI's directory.
    package func bytes(_ name: String) throws -> [UInt8] { try directory.read(name) }

    /// The certificates of `name` (PEM or DER), parsed by the core.
    package func certificates(_ name: String) throws -> [Certificate] {
        try CertificateBundle.decode(bytes(name)).certificates
    }

    /// Runs `openssl arguments` in the PKI's directory and returns its standard output.
    /// - Throws: ``ProcessError`` naming the command, its status and standard error unless it exits 0.
    @discardableResult
    package func openssl(_ arguments: [String], input: ProcessInput = .null) throws -> [UInt8] {
        try ProcessRunner.check(["openssl"] + arguments, input: input, currentDirectory: directory.path)
    }

    /// Runs `script` with `/bin/sh` in the PKI's directory (written there as `gen.sh`).
    /// - Throws: ``ProcessError`` with the script's standard error unless it exits 0.
    package func runScript(_ script: String) throws {
        try directory.write("gen.sh", Array(script.utf8))
        let result = try ProcessRunner.run(["/bin/sh", "gen.sh"], currentDirectory: directory.path)
        guard result.status == 0, result.signal == nil else {
            throw ProcessError("gen.sh failed: \(result.stderrText)")
        }
    }

    /// Writes a new key `name`.key: `key` is `rsa:BITS`, `ec:CURVE` (e.g. `ec:P-256`) or `ed25519`.
    package func makeKey(_ name: String, _ key: String) throws {
        let algorithm: [String]
        if key.hasPrefix("ec:") {
            algorithm = ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(key.dropFirst(3))"]
        } else if key.hasPrefix("rsa:") {
            algorithm = ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(key.dropFirst(4))"]
        } else if key == "ed25519" {
            algorithm = ["-algorithm", "ed25519"]
        } else {
            throw ProcessError("unknown key type '\(key)' (rsa:BITS, ec:CURVE, ed25519)")
        }
        try openssl(["genpkey"] + algorithm + ["-out", "\(name).key"])
    }

    /// Writes a self-signed certificate `name`.pem (and its key `name`.key, a new one of type `key`, see
    /// ``makeKey(_:_:)``) valid from now for `days` days, signed with `digest` (openssl's default when nil), with
    /// each of `extensions` (`-addext` values, e.g. `basicConstraints=critical,CA:TRUE`). Returns the PEM's URL.
    @discardableResult
    package func selfSigned(
        _ name: String, subject: String, key: String = "ec:P-256", days: Int = 30, digest: String? = nil,
        extensions: [String] = []
    ) throws -> URL {
        try makeKey(name, key)
        try openssl(
            ["req", "-x509", "-key", "\(name).key", "-subj", subject, "-days", "\(days)"]
                + (digest.map { ["-\($0)"] } ?? []) + extensions.flatMap { ["-addext", $0] } + ["-out", "\(name).pem"])
        return directory.fileURL("\(name).pem")
    }

    /// Writes a self-signed certificate `name`.pem and its new EC P-256 key `name`.key from an openssl `req`
    /// configuration (`config`, written to `name`.cnf: the subject, the extensions and how they are encoded),
    /// valid from now for `days` days. Returns the PEM's path.
    @discardableResult
    package func selfSigned(_ name: String, config: String, days: Int = 30) throws -> String {
        try directory.write("\(name).cnf", Array(config.utf8))
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "\(name).key",
            "-out", "\(name).pem", "-days", "\(days)", "-config", "\(name).cnf",
        ])
        return file("\(name).pem")
    }

    /// Writes `name`.pem, issued by `issuer` (`issuer`.pem and `issuer`.key) for a new EC P-256 key (unless
    /// `name`.key exists) with the extensions of `section` in `extensionFile` (a file of the directory), serial
    /// `serial` (hex), SHA-256, valid from now for `days` days. Returns the PEM's path.
    @discardableResult
    package func issue(
        _ name: String, subject: String, issuer: String, extensionFile: String, section: String, serial: String,
        days: Int
    ) throws -> String {
        if !FileManager.default.fileExists(atPath: file("\(name).key")) { try makeKey(name, "ec:P-256") }
        try openssl(["req", "-new", "-key", "\(name).key", "-subj", subject, "-out", "\(name).csr"])
        try openssl([
            "x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key", "-set_serial",
            serial, "-days", "\(days)", "-sha256", "-extfile", extensionFile, "-extensions", section, "-out", "\(name).pem",
        ])
        return file("\(name).pem")
    }
}
