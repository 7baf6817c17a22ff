import CertKit
import CertKitBackends
import Foundation

/// Client identities on the command line: detecting a PKCS#12 file by content, reading its password from a file
/// or an environment variable (never from the command line), and importing it or a certificate + key pair with a
/// backend's importer. Errors are one line: `certkit: <file>: <problem>`.
enum IdentityInput {
    /// `--password-file` and `--password-env`.
    static let passwordOptions: [OptionSpec] = [
        .value("password-file", "FILE", "read the PKCS#12 or key password from the first line of FILE"),
        .value("password-env", "VAR", "read the PKCS#12 or key password from the environment variable VAR"),
    ]

    /// True when `bytes` is a DER PKCS#12 PFX: SEQUENCE { INTEGER 3, ContentInfo { id-data | id-signedData, ... } }.
    static func isPKCS12(_ bytes: [UInt8]) -> Bool {
        var cursor = 0
        guard header(bytes, &cursor, tag: 0x30) != nil, bytes.count >= cursor + 3,
              bytes[cursor..<cursor + 3].elementsEqual([0x02, 0x01, 0x03])
        else { return false }
        cursor += 3
        guard header(bytes, &cursor, tag: 0x30) != nil else { return false }
        let pkcs7 = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07] as [UInt8]
        guard bytes.count >= cursor + pkcs7.count + 1, bytes[cursor..<cursor + pkcs7.count].elementsEqual(pkcs7) else {
            return false
        }
        return [0x01, 0x02].contains(bytes[cursor + pkcs7.count])
    }

    /// Reads a DER tag and length at `cursor`, leaving `cursor` on the contents; nil when malformed.
    private static func header(_ bytes: [UInt8], _ cursor: inout Int, tag: UInt8) -> Int? {
        guard cursor + 2 <= bytes.count, bytes[cursor] == tag else { return nil }
        let first = bytes[cursor + 1]
        cursor += 2
        if first < 0x80 { return Int(first) }
        let count = Int(first & 0x7F)
        guard count >= 1, count <= 4, cursor + count <= bytes.count else { return nil }
        var length = 0
        for byte in bytes[cursor..<cursor + count] { length = length << 8 | Int(byte) }
        cursor += count
        return length
    }

    /// The password given with `--password-file` (its first line) or `--password-env`, or nil when neither was
    /// given. It is held in ``SecretBytes`` (zeroed when released) and never becomes a Swift `String`; the
    /// environment variable itself stays in the process environment as the system holds it.
    /// - Throws: a usage error when both are given or the variable is not set; an input error when the file cannot
    ///   be read.
    static func password(_ arguments: ParsedArguments, reader: InputReader, command: String) throws(CLIError)
        -> SecretBytes?
    {
        switch (arguments.value("password-file"), arguments.value("password-env")) {
        case (.some, .some):
            throw .usage("--password-file and --password-env cannot be combined", command: command)
        case (let path?, nil):
            guard path != "-" else { throw .usage("--password-file needs a file, not '-'", command: command) }
            return try reader.readSecret(path).firstLine()
        case (nil, let variable?):
            guard let value = getenv(variable) else {
                throw .usage("--password-env \(variable): the variable is not set", command: command)
            }
            return SecretBytes(copying: UnsafeRawBufferPointer(start: value, count: strlen(value)))
        case (nil, nil):
            return nil
        }
    }

    /// No password: the empty one.
    private static var noPassword: SecretBytes { SecretBytes(copying: []) }

    /// Imports a PKCS#12 file with `importer` (an empty password when none was given); `gnutlsOption` is the
    /// option that makes this command import with GnuTLS (`--tls gnutls` for connect, `--backend gnutls` else).
    static func importPKCS12(
        _ bytes: [UInt8], file: String, password: SecretBytes?, importer: any IdentityImporter,
        gnutlsOption: String = "--backend gnutls"
    ) throws(CLIError) -> Identity {
        do {
            return try importer.importPKCS12(bytes, password: password ?? noPassword)
        } catch .wrongPassword where password == nil {
            throw .input(file: file, problem: "the PKCS#12 file needs a password: give --password-file FILE or --password-env VAR")
        } catch {
            throw .input(file: file, problem: problem(error, gnutlsOption: gnutlsOption))
        }
    }

    /// The line for `error`; legacy encryption names the option that imports with GnuTLS.
    static func problem(_ error: IdentityError, gnutlsOption: String) -> String {
        guard error.code == .legacyEncryption else { return error.description }
        return "\(error.description) (\(gnutlsOption))"
    }

    /// The certificates of a PKCS#12 file and its identity, nil when it holds no key (for `inspect` and `convert`,
    /// which list certificates-only files too).
    static func readPKCS12(
        _ bytes: [UInt8], file: String, password: SecretBytes?, importer: any IdentityImporter
    ) throws(CLIError) -> (certificates: [Certificate], identity: Identity?) {
        do {
            let identity = try importer.importPKCS12(bytes, password: password ?? noPassword)
            return (identity.certificates, identity)
        } catch .noKey {
            do {
                return (try importer.pkcs12Certificates(bytes, password: password ?? noPassword), nil)
            } catch {
                throw .input(file: file, problem: error.description)
            }
        } catch .wrongPassword where password == nil {
            throw .input(file: file, problem: "the PKCS#12 file needs a password: give --password-file FILE or --password-env VAR")
        } catch {
            throw .input(file: file, problem: problem(error, gnutlsOption: "--backend gnutls"))
        }
    }

    /// Loads the identity of `--identity FILE.p12` or `--cert FILE --key FILE` (nil when none of them is given).
    static func load(
        _ arguments: ParsedArguments, context: CommandContext, importer: any IdentityImporter, command: String
    ) throws(CLIError) -> Identity? {
        let identityPath = arguments.value("identity")
        let certificatePath = arguments.value("cert")
        let keyPath = arguments.value("key")
        if identityPath != nil, certificatePath != nil || keyPath != nil {
            throw .usage("--identity cannot be combined with --cert/--key", command: command)
        }
        if (certificatePath == nil) != (keyPath == nil) {
            throw .usage("--cert and --key go together", command: command)
        }
        let password = try password(arguments, reader: context.reader, command: command)
        if let identityPath {
            let bytes = try context.reader.read(identityPath)
            let name = InputReader.displayName(identityPath)
            guard isPKCS12(bytes) else {
                throw .input(file: name, problem: "not a PKCS#12 file (for PEM files use --cert FILE --key FILE)")
            }
            // The identity is imported by the library of the handshake (connect's --tls).
            return try importPKCS12(
                bytes, file: name, password: password, importer: importer,
                gnutlsOption: command == ConnectCommand.name ? "--tls gnutls" : "--backend gnutls")
        }
        guard let certificatePath, let keyPath else { return nil }
        let certificates = try context.loader.load(certificatePath).certificates
        let key = try context.reader.readSecret(keyPath)
        do {
            return try importer.importIdentity(certificates: certificates, privateKey: key, password: password)
        } catch .wrongPassword where password == nil {
            throw .input(file: InputReader.displayName(keyPath), problem: "the key is encrypted: give --password-file FILE or --password-env VAR")
        } catch .keyMismatch {
            throw .input(file: InputReader.displayName(keyPath), problem: "the private key does not belong to the certificate in \(certificatePath)")
        } catch {
            throw .input(file: InputReader.displayName(keyPath), problem: error.description)
        }
    }
}
