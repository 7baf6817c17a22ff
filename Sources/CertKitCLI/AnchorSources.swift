import CertKit

/// Where an evaluation's trust came from, for the output: the `--anchors` files, the system roots (with the files
/// and directories they were read from), the `--always-trust` files and the trust store.
///
/// Text: one line, `  anchors: root.pem (1 certificate); system roots (/etc/ssl/certs/ca-certificates.crt, 146
/// certificates)`. JSON: `"anchorSources": [{"kind": "anchors"|"systemRoots"|"alwaysTrust"|"trustStore",
/// "path": "...", "certificates": N}]` (for the system roots, one entry per file or directory read, each with the
/// store's count).
struct AnchorSources: Sendable, Equatable {
    /// One source.
    struct Source: Sendable, Equatable {
        enum Kind: String, Sendable {
            case anchors, systemRoots, alwaysTrust, trustStore
        }

        var kind: Kind
        var path: String
        /// The certificates it gave (for the trust store: its entries).
        var certificates: Int
    }

    var sources: [Source] = []

    /// The one text line (without its indentation): the anchors files, then the system roots, then the
    /// always-trusted files and the trust store.
    var text: String {
        func of(_ kind: Source.Kind) -> [Source] { sources.filter { $0.kind == kind } }
        var parts = of(.anchors).map { "\(DisplayText.escaped($0.path)) (\(Self.count($0.certificates)))" }
        let system = of(.systemRoots)
        if let first = system.first {
            parts.append(
                "system roots (\(system.map { DisplayText.escaped($0.path) }.joined(separator: ", ")), "
                    + "\(Self.count(first.certificates)))")
        }
        parts += of(.alwaysTrust).map { "always trusted \(DisplayText.escaped($0.path)) (\(Self.count($0.certificates)))" }
        parts += of(.trustStore).map {
            "trust store \(DisplayText.escaped($0.path)) (\($0.certificates) entr\($0.certificates == 1 ? "y" : "ies"))"
        }
        return "anchors: " + (parts.isEmpty ? "none" : parts.joined(separator: "; "))
    }

    /// The JSON array.
    var json: JSONValue {
        .array(sources.map { source in
            .object(["kind": .string(source.kind.rawValue), "path": .string(source.path), "certificates": .int(source.certificates)])
        })
    }

    private static func count(_ number: Int) -> String {
        "\(number) certificate\(number == 1 ? "" : "s")"
    }
}
