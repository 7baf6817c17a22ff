/// Why a ``TrustStore`` operation failed: one line naming the file concerned.
public struct TrustStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable, Hashable {
        /// The store file is not a valid store of a version this certkit reads: not JSON, not a certkit trust store,
        /// a missing or mistyped key, a certificate that does not decode or whose SHA-256 is not the one recorded,
        /// an invalid setting. The file is left untouched.
        case corrupt
        /// The store was written by a newer certkit (a format version above `TrustStore/formatVersion`). It is
        /// neither read nor overwritten.
        case newerFormat
        /// The store file (or its directory) cannot be read: permission denied, not a regular file, an I/O error.
        case unreadable
        /// A file of the store cannot be written (the store directory, its lock, a temporary file, an export
        /// target). Nothing was changed.
        case unwritable
        /// Another process holds the store's lock for longer than the wait allows.
        case locked
        /// No certificate of the store matches.
        case notFound
        /// A SHA-256 prefix matches several certificates.
        case ambiguous
        /// A setting cannot be given to that certificate (see ``TrustSettings/UsageConstraint/problem(for:)``).
        case invalidSetting
    }

    /// The kind of failure.
    public var kind: Kind
    /// The file (or directory) the failure concerns.
    public var file: String
    /// What is wrong, in a few words.
    public var problem: String

    /// Creates an error.
    package init(_ kind: Kind, file: String, problem: String) {
        self.kind = kind
        self.file = file
        self.problem = problem
    }

    /// `<file>: <problem>`.
    public var description: String { "\(file): \(problem)" }
}
