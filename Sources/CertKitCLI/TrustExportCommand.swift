import CertKit
import CertKitBackends

/// `certkit trust export`: the store's anchors for OpenSSL, GnuTLS and curl programs.
enum TrustExportCommand: Command {
    static let name = "trust export"
    static let summary = "export the store's anchors as a PEM bundle or an OpenSSL CApath directory"

    /// The formats `--format` offers.
    enum Format: String, CaseIterable {
        case pemBundle = "pem-bundle"
        case opensslDirectory = "openssl-dir"
    }

    static let options: [OptionSpec] = [
        .value("format", "pem-bundle|openssl-dir",
               "pem-bundle: one PEM file (CAfile, curl --cacert); openssl-dir: a CApath directory named by subject hash"),
        TrustCommand.storeOption,
    ]

    static let help = ArgumentParser.help(
        usage: "certkit trust export --format pem-bundle FILE|- | --format openssl-dir DIR [--store DIR]",
        summary: """
            Writes the trust store's anchors where OpenSSL, GnuTLS and curl programs can use them: a PEM bundle in
            FILE ('-' for standard output), or a directory of '<subject hash>.<n>' PEM files as 'openssl rehash'
            names them ('openssl verify -CApath DIR', 'curl --capath DIR'). Files are written atomically.
            """,
        options: options,
        details: """
            Exported are the certificates with an unrestricted trustRoot or trustAsRoot setting (no policy, no host)
            and no deny setting: a bundle cannot limit an anchor or express a distrust. Each certificate left out is
            named on standard error. An existing DIR must hold only an earlier export's files; stale ones are removed.
            OpenSSL accepts a trustAsRoot (not self-signed) anchor only with -partial_chain.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> ExitCode {
        guard let formatText = arguments.value("format") else {
            throw .usage("--format pem-bundle or --format openssl-dir is required", command: name)
        }
        guard let format = Format(rawValue: formatText) else {
            throw .usage("--format must be \(Format.allCases.map(\.rawValue).joined(separator: " or ")), not '\(formatText)'", command: name)
        }
        guard arguments.positionals.count == 1, let target = arguments.positionals.first, !target.isEmpty else {
            throw .usage("one \(format == .pemBundle ? "FILE" : "DIR") expected, got \(arguments.positionals.count)", command: name)
        }
        let store = try TrustCommand.store(arguments, context: context, command: name)
        let export: TrustStore.Export
        switch format {
        case .pemBundle where target == "-":
            let (bytes, selection) = try TrustStoreOption.run(command: name) { () throws(TrustStoreError) in try store.pemBundle() }
            context.stdout.write(bytes)
            export = selection
        case .pemBundle:
            export = try TrustStoreOption.run(command: name) { () throws(TrustStoreError) in try store.exportPEMBundle(to: target) }
        case .opensslDirectory:
            guard target != "-" else { throw .usage("openssl-dir needs a directory, not standard output", command: name) }
            export = try TrustStoreOption.run(command: name) { () throws(TrustStoreError) in
                try store.exportOpenSSLDirectory(to: target) { certificate throws(BackendError) in
                    try OpenSSLTools.subjectNameHash(of: certificate)
                }
            }
        }
        for skipped in export.skipped {
            // The name is already safe to print (NameText); only the other parts are escaped.
            context.stderr.write(
                "certkit: \(DisplayText.escaped(store.path)): warning: not exported: "
                    + NameText.display(skipped.entry.certificate.subject)
                    + " (sha256 \(skipped.entry.sha256Hex.prefix(16))…): \(DisplayText.escaped(skipped.reason))\n")
        }
        if target != "-" {
            let count = export.included.count
            context.stdout.write(
                "exported \(count) anchor\(count == 1 ? "" : "s") to \(DisplayText.escaped(target))"
                    + (export.skipped.isEmpty ? "" : " (\(export.skipped.count) left out)") + "\n")
        }
        return .success
    }
}
