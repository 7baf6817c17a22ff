import CertKit

/// Renders ``CertificateSummary`` values as aligned text, one block per certificate.
enum InspectTextRenderer {
    static func render(_ summaries: [CertificateSummary]) -> String {
        summaries.map(block).joined(separator: "\n")
    }

    /// One line per private key: present, whose, what kind; never the key.
    static func render(_ keys: [InspectKeyNote]) -> String {
        keys.map { key in
            guard let algorithm = key.algorithm else { return "\nPrivate key (\(key.file)): none in the file\n" }
            return "\nPrivate key (\(key.file)): present for certificate \(key.certificateIndex), \(algorithm) (not shown)\n"
        }.joined()
    }

    private static func block(_ summary: CertificateSummary) -> String {
        var rows: [(String, String)] = [
            ("Subject", summary.subject),
            ("Issuer", summary.issuer),
            ("Serial", summary.serial),
            ("Not before", ISO8601Text.timestamp(summary.notBefore)),
            ("Not after", ISO8601Text.timestamp(summary.notAfter)),
            ("Status", summary.status),
            ("Subject alt names", summary.subjectAltNames.isEmpty ? "(none)" : summary.subjectAltNames.joined(separator: ", ")),
            ("Public key", keyText(summary.publicKey)),
            ("Signature algorithm", summary.signatureAlgorithm),
            ("Basic constraints", summary.basicConstraints.map { bc in
                "CA:" + (bc.isCA ? "TRUE" : "FALSE") + (bc.pathLength.map { ", pathlen:\($0)" } ?? "")
            } ?? "(absent)"),
            ("Key usage", summary.keyUsage.map(list) ?? "(absent)"),
            ("Extended key usage", summary.extendedKeyUsage.map(list) ?? "(absent)"),
        ]
        let extensions = summary.extensions.map { ext in
            (ext.name ?? ext.oid) + (ext.critical ? " (critical)" : "")
        }
        rows.append(("Extensions", extensions.isEmpty ? "(none)" : extensions.joined(separator: ", ")))
        rows += [
            ("SHA-256", HexText.colonUppercase(summary.sha256)),
            ("SHA-1", HexText.colonUppercase(summary.sha1)),
            ("SPKI pin", summary.spkiPin),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        var lines = ["Certificate \(summary.index) (\(summary.file))"]
        for (label, value) in rows {
            lines.append("  " + label + ":" + String(repeating: " ", count: width - label.count + 1) + value)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func list(_ values: [String]) -> String { values.isEmpty ? "(empty)" : values.joined(separator: ", ") }

    private static func keyText(_ key: CertificateSummary.Key) -> String {
        var text = key.algorithm
        if let curve = key.curve { text += " \(curve)" }
        if let bits = key.bits { text += " (\(bits) bit)" }
        return text
    }
}
