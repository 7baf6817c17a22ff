import Foundation

/// A persistent trust store: certificates and their trust settings in a directory, kept across runs (the Linux
/// counterpart of the keychain's trust settings, `SecTrustSettingsSetTrustSettings`).
///
/// The directory holds one data file, `trust-store.json` (a documented, versioned JSON format:
/// Docs/TrustStore.md), and a lock file, `trust-store.lock`. Use the settings in an evaluation with
/// ``trustSettings()``:
///
/// ```swift
/// let store = TrustStore(directory: TrustStore.defaultDirectory()!, backend: OpenSSLBackend())
/// try store.add(root, constraint: .init(result: .trustRoot))
/// var trust = TrustEvaluation(certificates: chain, policies: [.sslServer(host: "api.example.com")],
///                             trustSettings: try store.trustSettings())
/// ```
///
/// **Concurrency.** A `TrustStore` holds no mutable state and is `Sendable`: use one from any number of threads.
/// Every change is a read-modify-write under an exclusive `flock(2)` on the lock file, so changes from several
/// threads or processes are serialized and none is lost; the new file is written to a temporary file in the same
/// directory and renamed over the old one, so a reader (which takes no lock) always sees a complete store, the old
/// or the new. A failed or interrupted write leaves the old file as it was. The lock works between processes
/// on one machine; do not share a store directory over NFS.
///
/// **Errors.** A store file that is not valid (``TrustStoreError/Code/corrupt``), was written by a newer certkit
/// (``TrustStoreError/Code/newerFormat``) or cannot be read is an error naming the file, for reads and writes
/// alike: it is never ignored, and never overwritten. A missing directory or file is an empty store.
public final class TrustStore: Sendable {
    /// The newest format version this certkit reads and writes (it reads every version from 1; it writes 2 only when
    /// a setting carries a distrust-after date, which version 1 does not know).
    package static let formatVersion = 2
    /// The data file's name in the store directory.
    package static let fileName = "trust-store.json"
    /// The lock file's name in the store directory.
    package static let lockFileName = "trust-store.lock"
    /// The environment variable that names the store directory.
    package static let environmentVariable = "CERTKIT_STORE"

    /// One certificate of the store and its settings.
    public struct Entry: Sendable, Hashable {
        /// The certificate.
        public var certificate: Certificate
        /// The SHA-256 of its DER.
        public var sha256: [UInt8]
        /// Its usage constraints, newest first (the first that applies and decides wins).
        public var constraints: [TrustSettings.UsageConstraint]

        /// Creates an entry.
        package init(certificate: Certificate, sha256: [UInt8], constraints: [TrustSettings.UsageConstraint]) {
            self.certificate = certificate
            self.sha256 = sha256
            self.constraints = constraints
        }

        /// ``sha256`` as lowercase hex.
        public var sha256Hex: String { Hex.encode(sha256) }

        /// The certificate with its settings, as an evaluation takes them.
        public var settings: CertificateTrustSettings {
            CertificateTrustSettings(certificate: certificate, constraints: constraints)
        }
    }

    /// The store directory.
    public let directory: String
    /// How long a change waits for another process's lock before failing with ``TrustStoreError/Code/locked``.
    public let lockTimeout: Duration
    private let backend: any TrustBackend
    private let limits: Limits

    /// A store in `directory` (nothing is read or created until used). `backend` computes the certificates'
    /// SHA-256; `limits` bounds the store file (``Limits/maxInputBytes``) and the certificates in it.
    public convenience init(
        directory: String, backend: Backend, limits: Limits = .default, lockTimeout: Duration = .seconds(30)
    ) {
        self.init(directory: directory, backend: backend.implementation, limits: limits, lockTimeout: lockTimeout)
    }

    /// A store in `directory` whose SHA-256 a backend implementation computes.
    package init(
        directory: String, backend: any TrustBackend, limits: Limits = .default, lockTimeout: Duration = .seconds(30)
    ) {
        self.directory = directory
        self.backend = backend
        self.limits = limits
        self.lockTimeout = lockTimeout
    }

    /// The data file's path.
    package var path: String { (directory as NSString).appendingPathComponent(Self.fileName) }
    /// The lock file's path.
    package var lockPath: String { (directory as NSString).appendingPathComponent(Self.lockFileName) }

    /// The default store directory: `$CERTKIT_STORE` when set, else `$XDG_DATA_HOME/certkit` (when that is an
    /// absolute path, as the XDG specification requires), else `$HOME/.local/share/certkit`; nil without `HOME`.
    public static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        if let store = environment[environmentVariable], !store.isEmpty { return store }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return (data as NSString).appendingPathComponent("certkit")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home as NSString).appendingPathComponent(".local/share/certkit")
    }

    // MARK: Reading

    /// Every certificate of the store with its settings, in the order they were added.
    /// - Throws: ``TrustStoreError`` when the store file is corrupt, newer or unreadable.
    public func entries() throws(TrustStoreError) -> [Entry] {
        guard let bytes = try TrustStoreFiles.read(path, limit: limits.maxInputBytes) else { return [] }
        return try decode(bytes)
    }

    /// The store's settings, for ``TrustEvaluation/trustSettings`` (combine them with others through
    /// ``TrustSettings/merging(_:)``).
    public func trustSettings() throws(TrustStoreError) -> TrustSettings {
        TrustSettings(certificateSettings: try entries().map(\.settings))
    }

    /// The settings stored for `certificate` (empty when it has none).
    public func settings(for certificate: Certificate) throws(TrustStoreError) -> [TrustSettings.UsageConstraint] {
        try entries().first { $0.certificate == certificate }?.constraints ?? []
    }

    /// The entries whose SHA-256 starts with `prefix` (hex digits in either case, `:` separators allowed).
    public func entries(matchingSHA256Prefix prefix: String) throws(TrustStoreError) -> [Entry] {
        let wanted = Self.normalizedPrefix(prefix)
        return try entries().filter { $0.sha256Hex.hasPrefix(wanted) }
    }

    /// The one entry whose SHA-256 starts with `prefix`.
    /// - Throws: ``TrustStoreError/Code/notFound`` or ``TrustStoreError/Code/ambiguous``, besides read errors.
    public func entry(matchingSHA256Prefix prefix: String) throws(TrustStoreError) -> Entry {
        try Self.single(try entries(matchingSHA256Prefix: prefix), prefix: prefix, path: path)
    }

    /// True when `text` can be a SHA-256 prefix: 4 to 64 hex digits (`:` separators allowed).
    package static func isSHA256Prefix(_ text: String) -> Bool {
        let digits = normalizedPrefix(text)
        return (4...64).contains(digits.count) && digits.allSatisfy(\.isHexDigit)
    }

    // MARK: Changing

    /// Adds `constraint` to `certificate`'s settings (adding the certificate when it is new) and returns the
    /// entry. The new constraint goes first, so it is the first looked at; a constraint with the same policy and
    /// host is replaced, and adding a constraint the certificate already has first changes nothing.
    /// - Throws: ``TrustStoreError/Code/invalidSetting`` when the constraint cannot be given to that certificate,
    ///   besides read and write errors.
    @discardableResult
    public func add(_ certificate: Certificate, constraint: TrustSettings.UsageConstraint) throws(TrustStoreError)
        -> Entry
    {
        if let problem = constraint.problem(for: certificate) {
            throw TrustStoreError(.invalidSetting, file: path, problem: "\(certificate.subject): \(problem)")
        }
        let fingerprint = try digest(certificate)
        return try modify { (entries: inout [Entry]) throws(TrustStoreError) -> Entry in
            guard let index = entries.firstIndex(where: { $0.sha256 == fingerprint }) else {
                try self.checkRoom(entries)
                let entry = Entry(certificate: certificate, sha256: fingerprint, constraints: [constraint])
                entries.append(entry)
                return entry
            }
            var constraints = entries[index].constraints
            constraints.removeAll { $0.policy == constraint.policy && $0.host?.lowercased() == constraint.host?.lowercased() }
            constraints.insert(constraint, at: 0)
            entries[index].constraints = constraints
            return entries[index]
        }
    }

    /// Replaces all of `certificate`'s settings with `constraints` (in order); an empty list removes the
    /// certificate. Returns the entry, or nil when it was removed.
    @discardableResult
    public func setConstraints(_ constraints: [TrustSettings.UsageConstraint], for certificate: Certificate)
        throws(TrustStoreError) -> Entry?
    {
        for constraint in constraints {
            if let problem = constraint.problem(for: certificate) {
                throw TrustStoreError(.invalidSetting, file: path, problem: "\(certificate.subject): \(problem)")
            }
        }
        let fingerprint = try digest(certificate)
        return try modify { (entries: inout [Entry]) throws(TrustStoreError) -> Entry? in
            let index = entries.firstIndex { $0.sha256 == fingerprint }
            if constraints.isEmpty {
                if let index { entries.remove(at: index) }
                return nil
            }
            let entry = Entry(certificate: certificate, sha256: fingerprint, constraints: constraints)
            if let index {
                entries[index] = entry
            } else {
                try self.checkRoom(entries)
                entries.append(entry)
            }
            return entry
        }
    }

    /// Removes `certificate` and all its settings; returns what was removed.
    /// - Throws: ``TrustStoreError/Code/notFound`` when the store does not hold it, besides read and write errors.
    @discardableResult
    public func remove(_ certificate: Certificate) throws(TrustStoreError) -> Entry {
        let fingerprint = try digest(certificate)
        let path = self.path
        return try modify(creating: false) { (entries: inout [Entry]) throws(TrustStoreError) -> Entry in
            guard let index = entries.firstIndex(where: { $0.sha256 == fingerprint }) else {
                throw TrustStoreError(
                    .notFound, file: path, problem: "\(certificate.subject) (sha256 \(Hex.encode(fingerprint))) is not in the trust store")
            }
            return entries.remove(at: index)
        }
    }

    /// Removes the one certificate whose SHA-256 starts with `prefix`, and all its settings; returns what was
    /// removed.
    /// - Throws: ``TrustStoreError/Code/notFound`` or ``TrustStoreError/Code/ambiguous``, besides read and write
    ///   errors.
    @discardableResult
    public func remove(sha256Prefix prefix: String) throws(TrustStoreError) -> Entry {
        let path = self.path
        return try modify(creating: false) { (entries: inout [Entry]) throws(TrustStoreError) -> Entry in
            let wanted = Self.normalizedPrefix(prefix)
            let removed = try Self.single(entries.filter { $0.sha256Hex.hasPrefix(wanted) }, prefix: prefix, path: path)
            entries.removeAll { $0.sha256 == removed.sha256 }
            return removed
        }
    }

    /// One setting as the store file writes it (the command line's JSON output uses the same form).
    package static func settingJSON(_ constraint: TrustSettings.UsageConstraint) -> JSONValue {
        TrustStoreFormat.json(constraint)
    }

    // MARK: Internals

    /// Runs `body` on the store's entries under the lock and writes the result back when it changed. With
    /// `creating` false, a missing store directory is an empty store that is not created (a removal).
    private func modify<Value>(
        creating: Bool = true, _ body: (inout [Entry]) throws(TrustStoreError) -> Value
    ) throws(TrustStoreError) -> Value {
        if !creating, !FileManager.default.fileExists(atPath: directory) {
            var nothing: [Entry] = []
            return try body(&nothing)
        }
        try TrustStoreFiles.createDirectory(directory)
        let lock = try TrustStoreFiles.Lock(path: lockPath, timeout: lockTimeout)
        defer { withExtendedLifetime(lock) {} }
        TrustStoreFiles.removeStaleTemporaries(in: directory, for: Self.fileName)
        let bytes = try TrustStoreFiles.read(path, limit: limits.maxInputBytes)
        let before = try bytes.map { bytes throws(TrustStoreError) in try decode(bytes) } ?? []
        var entries = before
        let value = try body(&entries)
        if entries != before {
            try TrustStoreFiles.replace(path, with: TrustStoreFormat.encode(entries))
        }
        return value
    }

    private func decode(_ bytes: [UInt8]) throws(TrustStoreError) -> [Entry] {
        try TrustStoreFormat.decode(bytes, path: path) { certificate throws(BackendError) in
            try backend.digest(.sha256, of: certificate.derEncoded)
        }
    }

    /// A store holds at most ``Limits/maxAnchors`` certificates (an evaluation refuses more).
    private func checkRoom(_ entries: [Entry]) throws(TrustStoreError) {
        guard entries.count < limits.maxAnchors else {
            throw TrustStoreError(
                .unwritable, file: path,
                problem: "the trust store holds \(entries.count) certificates, the most Limits.maxAnchors allows")
        }
    }

    private func digest(_ certificate: Certificate) throws(TrustStoreError) -> [UInt8] {
        do {
            return try backend.digest(.sha256, of: certificate.derEncoded)
        } catch {
            throw TrustStoreError(.unwritable, file: path, problem: "cannot digest \(certificate.subject): \(error.message)")
        }
    }

    private static func normalizedPrefix(_ prefix: String) -> String {
        prefix.lowercased().filter { $0 != ":" }
    }

    private static func single(_ matches: [Entry], prefix: String, path: String) throws(TrustStoreError) -> Entry {
        guard matches.count <= 1 else {
            throw TrustStoreError(
                .ambiguous, file: path,
                problem: "\(matches.count) certificates have a SHA-256 starting with \(normalizedPrefix(prefix)); give more digits")
        }
        guard let match = matches.first else {
            throw TrustStoreError(
                .notFound, file: path, problem: "no certificate has a SHA-256 starting with \(normalizedPrefix(prefix))")
        }
        return match
    }
}
