import Foundation

extension TrustStore {
    /// What an export wrote and what it left out.
    package struct Export: Sendable, Hashable {
        /// A certificate left out, and why.
        package struct Skipped: Sendable, Hashable {
            /// The entry.
            package var entry: Entry
            /// Why it was not exported.
            package var reason: String
        }

        /// The anchors exported, in store order.
        package var included: [Entry]
        /// The certificates left out.
        package var skipped: [Skipped]
        /// The files written (one bundle, or one file per anchor in a directory).
        package var files: [String]
    }

    /// Why `entry` is not exported as an anchor, or nil when it is. A PEM bundle or an OpenSSL directory can say
    /// only "trusted for everything", so an export holds exactly the certificates with an unrestricted `trustRoot`
    /// or `trustAsRoot` setting (no policy, no host) and no `deny` setting; certificates trusted only for a policy
    /// or host, distrusted, or carrying only `unspecified` settings are left out (allowed errors are not exported).
    /// ``exportSelection()`` also leaves out a certificate denied through another one of the store.
    package static func exportExclusionReason(_ entry: Entry) -> String? {
        if entry.constraints.contains(where: { $0.result == .deny }) { return "it has a deny setting" }
        let anchors = entry.constraints.filter { $0.result.isAnchor && $0.result.isValid(for: entry.certificate) }
        if anchors.contains(where: { $0.policy == nil && $0.host == nil }) { return nil }
        if let scoped = anchors.first {
            return "it is trusted only as '\(scoped.summary)'; a bundle cannot limit an anchor to a policy or host"
        }
        return "it has no trustRoot or trustAsRoot setting"
    }

    /// Splits the store into the anchors an export writes and the certificates it leaves out
    /// (``exportExclusionReason(_:)``).
    /// A certificate that shares an identity with one that has a deny setting (`CertificateIdentity`: the same
    /// issuer and serial, or the same subject and key) is left out too: an evaluation denies it.
    package func exportSelection() throws(TrustStoreError) -> Export {
        var export = Export(included: [], skipped: [], files: [])
        let entries = try entries()
        let denied = entries.filter { $0.constraints.contains { $0.result == .deny } }.map(\.certificate)
        for entry in entries {
            if let reason = Self.exportExclusionReason(entry) ?? Self.relatedDenial(entry.certificate, denied) {
                export.skipped.append(Export.Skipped(entry: entry, reason: reason))
            } else {
                export.included.append(entry)
            }
        }
        return export
    }

    /// Why `certificate` is denied through another certificate of `denied`, or nil.
    static func relatedDenial(_ certificate: Certificate, _ denied: [Certificate]) -> String? {
        guard denied.contains(where: { $0 != certificate && CertificateIdentity.related($0, certificate) }) else { return nil }
        return "a certificate with the same issuer and serial, or the same subject and key, has a deny setting"
    }

    /// The exported anchors as one PEM bundle (each preceded by `#` lines with its subject and SHA-256, which
    /// OpenSSL, GnuTLS and curl skip), and what it holds.
    package func pemBundle() throws(TrustStoreError) -> (bytes: [UInt8], export: Export) {
        let export = try exportSelection()
        var text = ""
        for entry in export.included {
            // The RFC 4514 string is already safe to print (controls are hex escapes): escaping it again would
            // double its backslashes, and the comment would not read as `inspect` prints the name.
            text += "# \(entry.certificate.subject.description)\n# SHA-256 \(entry.sha256Hex)\n"
            text += Self.distrustAfterComment(entry) + PEM.encode(entry.certificate.derEncoded)
        }
        return (Array(text.utf8), export)
    }

    /// Writes the exported anchors to `file` as a PEM bundle (`CAfile` for OpenSSL, `--cacert` for curl,
    /// `gnutls_certificate_set_x509_trust_file`), atomically: the old file stays whole until the new one replaces
    /// it.
    @discardableResult
    package func exportPEMBundle(to file: String) throws(TrustStoreError) -> Export {
        var (bytes, export) = try pemBundle()
        try Self.checkParent(of: file)
        try TrustStoreFiles.replace(file, with: bytes)
        export.files = [file]
        return export
    }

    /// Writes the exported anchors into `directory` as OpenSSL's `CApath` wants them: one PEM file per anchor,
    /// named `<subject hash>.<n>` as `openssl rehash` names them (`n` counts anchors with the same hash from 0).
    /// `subjectHash` is OpenSSL's `X509_subject_name_hash` (the OpenSSL backend provides it).
    ///
    /// The directory is created when missing. An existing one must hold nothing but such files (an earlier
    /// export): they are replaced, each atomically, and the ones no longer exported are removed.
    @discardableResult
    package func exportOpenSSLDirectory(
        to directory: String, subjectHash: (Certificate) throws(BackendError) -> UInt32
    ) throws(TrustStoreError) -> Export {
        var export = try exportSelection()
        var names: [String] = []
        var used: [UInt32: Int] = [:]
        for entry in export.included {
            let hash: UInt32
            do {
                hash = try subjectHash(entry.certificate)
            } catch {
                throw TrustStoreError(
                    .unwritable, file: directory, problem: "cannot hash \(entry.certificate.subject): \(error.message)")
            }
            let index = used[hash, default: 0]
            used[hash] = index + 1
            names.append(String(format: "%08x.%d", hash, index))
        }
        var isDirectory: ObjCBool = false
        var existing: [String] = []
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw TrustStoreError(.unwritable, file: directory, problem: "not a directory")
            }
            do {
                existing = try FileManager.default.contentsOfDirectory(atPath: directory)
            } catch {
                throw TrustStoreError(.unreadable, file: directory, problem: "cannot list: \(TrustStoreFiles.reason(error))")
            }
            // Only files (or links) with hash names are an earlier export's: anything else, a directory with such
            // a name included, is refused, never replaced or deleted.
            if let stranger = existing.first(where: {
                !Self.isHashFileName($0) || !Self.isFileOrLink((directory as NSString).appendingPathComponent($0))
            }) {
                throw TrustStoreError(
                    .unwritable, file: directory,
                    problem: "holds '\(MessageText.line(stranger, limit: 40))', so it is not an earlier export; choose an empty or new directory")
            }
        } else {
            try Self.checkParent(of: directory)
            try TrustStoreFiles.createDirectory(directory)
        }
        for (entry, name) in zip(export.included, names) {
            let file = (directory as NSString).appendingPathComponent(name)
            try TrustStoreFiles.replace(
                file, with: Array((Self.distrustAfterComment(entry) + PEM.encode(entry.certificate.derEncoded)).utf8))
            export.files.append(file)
        }
        for stale in Set(existing).subtracting(names) {
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(stale))
        }
        return export
    }

    /// The comment line an exported anchor with a distrust-after date gets (empty without one): PEM cannot carry the
    /// date, so whoever uses the export trusts the anchor for every leaf; the line says so, for people reading the
    /// file (OpenSSL, GnuTLS and curl skip text outside the PEM block).
    static func distrustAfterComment(_ entry: Entry) -> String {
        guard let date = entry.constraints.compactMap(\.distrustAfter).min() else { return "" }
        return "# distrust-after \(ISO8601Text.timestamp(date)): not enforced by this PEM, which cannot carry it; "
            + "only certkit's trust store distrusts the leaves this anchor issued after that date\n"
    }

    /// True when `path` itself (not what a link points to) is a regular file or a symbolic link.
    static func isFileOrLink(_ path: String) -> Bool {
        guard let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        else { return false }
        return type == .typeRegular || type == .typeSymbolicLink
    }

    /// True for `<8 lowercase hex>.<decimal>`, the names `openssl rehash` gives certificates.
    static func isHashFileName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 8, !parts[1].isEmpty else { return false }
        return parts[0].allSatisfy { $0.isHexDigit && !$0.isUppercase } && parts[1].allSatisfy(\.isASCII)
            && parts[1].allSatisfy(\.isNumber)
    }

    private static func checkParent(of path: String) throws(TrustStoreError) {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TrustStoreError(.unwritable, file: path, problem: "cannot write: directory \(parent) does not exist")
        }
    }
}
