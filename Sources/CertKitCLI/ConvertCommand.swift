import CertKit
import CertKitBackends
import Foundation

/// `certkit convert`: PEM ⇄ DER, bundles included, keys never copied.
enum ConvertCommand: Command {
    static let name = "convert"
    static let summary = "convert certificates between PEM and DER"

    static let options: [OptionSpec] = [
        .value("to", "der|pem", "output format (default: the other format of the first input)"),
        .value("out", "FILE", "write to FILE (atomically) instead of standard output"),
        .value("out-dir", "DIR", "write one file per certificate into DIR, named NN-<subject CN>.der|pem"),
        .value("backend", BackendRegistry.choices,
               "backend that must also import each certificate and opens PKCS#12 files (default \(BackendRegistry.standard.defaultName))"),
        .flag("include-key", "also write the private key of a PKCS#12 input (PEM, --out FILE only; the file gets mode 0600)"),
    ] + IdentityInput.passwordOptions

    static let help = ArgumentParser.help(
        usage: """
            certkit convert [--to der|pem] [--out FILE | --out-dir DIR] [--backend NAME] [FILE ...|-]
                   certkit convert FILE.p12 --to pem [--include-key --out FILE] [--password-file FILE | --password-env VAR]
            """,
        summary: """
            Reads certificates from each FILE (or standard input for '-' or no FILE), detected by content: PEM in
            any form, DER, concatenated DER, PKCS#7. PEM input becomes DER, anything else becomes strict PEM.
            Several DER certificates need --out-dir. Non-certificate PEM blocks (private keys) are never written;
            a warning names them. A PKCS#12 file (detected by content) gives its certificates, leaf first, as PEM; its
            private key is written only with --include-key, as PKCS#8 PEM after the certificates, to the --out FILE,
            which is created with mode 0600 (never to standard output).
            """,
        options: options)

    /// The output format.
    enum Format: String {
        case der, pem
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        let target = try arguments.value("to").map { text throws(CLIError) -> Format in
            guard let format = Format(rawValue: text.lowercased()) else {
                throw .usage("--to must be 'der' or 'pem', not '\(text)'", command: name)
            }
            return format
        }
        let out = arguments.value("out")
        let outDirectory = arguments.value("out-dir")
        if out != nil, outDirectory != nil {
            throw .usage("--out and --out-dir cannot be combined", command: name)
        }
        if let out, out.isEmpty { throw .usage("--out needs a file name", command: name) }
        if let outDirectory, outDirectory.isEmpty { throw .usage("--out-dir needs a directory", command: name) }
        let backend = try context.registry.resolve(arguments.value("backend"), command: name)
        let inputs = arguments.positionals.isEmpty ? ["-"] : arguments.positionals
        if inputs.filter({ $0 == "-" }).count > 1 {
            throw .usage("standard input ('-') can be read only once", command: name)
        }

        let includeKey = arguments.has("include-key")
        if includeKey {
            guard out != nil, target != .der else {
                throw .usage(
                    "--include-key writes PEM to a file only: give --out FILE (and not --to der or --out-dir)",
                    command: name)
            }
        }

        var certificates: [Certificate] = []
        var keys: [PrivateKey] = []
        var firstFormat: CertificateBundle.Format?
        for input in inputs {
            let file = InputReader.displayName(input)
            let bytes = try context.reader.read(input)
            if IdentityInput.isPKCS12(bytes), let importer = context.registry.entry(named: backend.name)?.identityImporter() {
                let password = try IdentityInput.password(arguments, reader: context.reader, command: name)
                let contents = try IdentityInput.readPKCS12(bytes, file: file, password: password, importer: importer)
                firstFormat = firstFormat ?? .der
                certificates += contents.certificates
                if let key = contents.identity?.privateKey { keys.append(key) }
                continue
            }
            let bundle = try context.loader.decode(bytes, name: file, backend: backend)
            firstFormat = firstFormat ?? bundle.format
            certificates += bundle.certificates
        }
        let format = target ?? (firstFormat == .pem ? .der : .pem)
        if includeKey, keys.isEmpty {
            throw .input(file: inputs.map(InputReader.displayName).joined(separator: ", "),
                         problem: "--include-key: no private key in the input (only PKCS#12 files carry one)")
        }

        let files: [(name: String?, bytes: [UInt8])]
        switch (format, outDirectory) {
        case (_, let directory?):
            files = certificates.enumerated().map { position, certificate in
                (OutputNaming.fileName(
                    position: position, count: certificates.count, certificate: certificate,
                    extension: format.rawValue, in: directory),
                 encode(certificate, as: format))
            }
        case (.der, nil):
            guard certificates.count == 1 else {
                throw .usage(
                    "\(certificates.count) certificates cannot be written as one DER file; use --out-dir DIR or --to pem",
                    command: name)
            }
            files = [(out, certificates[0].derEncoded)]
        case (.pem, let directory) where includeKey && directory == nil:
            // The key's DER, its PEM and the file's bytes live only in SecretBytes, zeroed when released.
            var file = SecretBytes(copying: certificates.flatMap { encode($0, as: .pem) })
            for key in keys {
                do { file = file.appending(try key.storage.pkcs8DER().pemEncoded(label: "PRIVATE KEY")) } catch {
                    throw .backend(name: key.storage.backendName, problem: error.description)
                }
            }
            let writer = AtomicFileWriter()
            try writer.stage(file, to: out ?? "", permissions: 0o600)
            try writer.commit()
            return .success
        case (.pem, nil):
            files = [(out, certificates.flatMap { encode($0, as: .pem) })]
        }

        let writer = AtomicFileWriter()
        var toStandardOutput: [UInt8] = []
        for file in files {
            if let path = file.name {
                try writer.stage(file.bytes, to: path)
            } else {
                toStandardOutput += file.bytes
            }
        }
        try writer.commit()
        context.stdout.write(toStandardOutput)
        return .success
    }

    private static func encode(_ certificate: Certificate, as format: Format) -> [UInt8] {
        switch format {
        case .der: certificate.derEncoded
        case .pem: Array(PEM.encode(certificate.derEncoded).utf8)
        }
    }
}
