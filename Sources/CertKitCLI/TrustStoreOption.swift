import CertKit
import Foundation

/// Which trust store a command uses: the one `--store DIR` (or `--trust-store=DIR`) names, else `CERTKIT_STORE`,
/// else `$XDG_DATA_HOME/certkit`, else `~/.local/share/certkit` (``TrustStore/defaultDirectory(environment:)``).
enum TrustStoreOption {
    /// The store directory: `explicit` when given, else the default for `environment`.
    /// - Throws: a usage error when no directory can be chosen (no `HOME`).
    static func directory(_ explicit: String?, environment: [String: String], command: String) throws(CLIError) -> String {
        if let explicit {
            guard !explicit.isEmpty else { throw .usage("the trust store needs a directory name", command: command) }
            return explicit
        }
        guard let directory = TrustStore.defaultDirectory(environment: environment) else {
            throw .usage(
                "no trust store directory: set CERTKIT_STORE, XDG_DATA_HOME or HOME, or name one", command: command)
        }
        return directory
    }

    /// The directory of the store an evaluation reads (`--trust-store`, `--trust-store=DIR`, `--store DIR`): it must
    /// exist, since only `certkit trust add` creates a store and a mistyped or missing one would quietly apply nothing.
    /// - Throws: an input error naming the directory when it does not exist or is not a directory; a usage error
    ///   when no directory can be chosen.
    static func existingDirectory(_ explicit: String?, environment: [String: String], command: String) throws(CLIError)
        -> String
    {
        let directory = try Self.directory(explicit, environment: environment, command: command)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            let store = explicit == nil ? "the default trust store does not exist yet" : "no such trust store directory"
            let add = explicit == nil ? "'certkit trust add FILE'" : "'certkit trust add --store \(directory) FILE'"
            throw .input(file: directory, problem: "\(store) (\(add) creates it)")
        }
        guard isDirectory.boolValue else {
            throw .input(file: directory, problem: "not a directory (a trust store is a directory)")
        }
        return directory
    }

    /// The store in `directory`; its digests come from the default backend.
    static func store(_ directory: String, context: CommandContext) -> TrustStore {
        TrustStore(directory: directory, backend: context.registry.backend(named: context.registry.defaultName)!)
    }

    /// The command-line error for a store error: a usage error for a prefix that matches several certificates or a
    /// setting the certificate cannot take (exit 2), else an input or output error naming the file (exit 1).
    static func error(_ error: TrustStoreError, command: String) -> CLIError {
        switch error.code {
        case .ambiguous, .invalidSetting: .usage(error.problem, command: command)
        case .unwritable, .locked: .output(file: error.file, problem: error.problem)
        default: .input(file: error.file, problem: error.problem)  // corrupt, newerFormat, unreadable, notFound
        }
    }

    /// Runs `body`, turning a store error into the command-line error.
    static func run<Value>(command: String, _ body: () throws(TrustStoreError) -> Value) throws(CLIError) -> Value {
        do {
            return try body()
        } catch {
            throw Self.error(error, command: command)
        }
    }

    /// The lines describing one entry: subject, SHA-256, then one line per setting.
    static func text(_ entry: TrustStore.Entry) -> String {
        var lines = [
            NameText.display(entry.certificate.subject),
            "  sha256    \(entry.sha256Hex)",
            "  issuer    \(NameText.display(entry.certificate.issuer))",
            "  notAfter  \(ISO8601Text.timestamp(entry.certificate.notAfter))",
        ]
        for (index, constraint) in entry.constraints.enumerated() {
            lines.append("  setting \(index + 1): \(DisplayText.escaped(constraint.summary))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON object for one entry.
    static func json(_ entry: TrustStore.Entry) -> JSONValue {
        .object([
            "subject": .string(NameText.display(entry.certificate.subject)),
            "issuer": .string(NameText.display(entry.certificate.issuer)),
            "sha256": .string(entry.sha256Hex),
            "notBefore": .string(ISO8601Text.timestamp(entry.certificate.notBefore)),
            "notAfter": .string(ISO8601Text.timestamp(entry.certificate.notAfter)),
            "selfSigned": .bool(entry.certificate.isSelfSigned),
            "settings": .array(entry.constraints.map(TrustStore.settingJSON)),
        ])
    }
}
