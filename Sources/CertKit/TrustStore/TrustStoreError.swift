/// Why a ``TrustStore`` operation failed: one line naming the file concerned. Errors compare by ``code``, the
/// file and the problem.
public struct TrustStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    /// Codes may be added in later versions: compare with `==` and give a `switch` a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Sendable {
            case corrupt, newerFormat, unreadable, unwritable, locked, notFound, ambiguous, invalidSetting
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The store file is not a valid store of a version this certkit reads: not JSON, not a certkit trust store,
        /// a missing or mistyped key, a certificate that does not decode or whose SHA-256 is not the one recorded,
        /// an invalid setting. The file is left untouched.
        public static let corrupt = Code(.corrupt)
        /// The store was written by a newer certkit (a format version above `TrustStore/formatVersion`). It is
        /// neither read nor overwritten.
        public static let newerFormat = Code(.newerFormat)
        /// The store file (or its directory) cannot be read: permission denied, not a regular file, an I/O error.
        public static let unreadable = Code(.unreadable)
        /// A file of the store cannot be written (the store directory, its lock, a temporary file, an export
        /// target). Nothing was changed.
        public static let unwritable = Code(.unwritable)
        /// Another process holds the store's lock for longer than the wait allows.
        public static let locked = Code(.locked)
        /// No certificate of the store matches.
        public static let notFound = Code(.notFound)
        /// A SHA-256 prefix matches several certificates.
        public static let ambiguous = Code(.ambiguous)
        /// A setting cannot be given to that certificate (see ``TrustSettings/UsageConstraint/problem(for:)``).
        public static let invalidSetting = Code(.invalidSetting)

        /// The code's stable name (`corrupt`, ...), as the command line's JSON writes it.
        public var description: String { backing.rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// The file (or directory) the failure concerns.
    public var file: String
    /// What is wrong, in a few words.
    public var problem: String

    /// Creates an error.
    package init(_ code: Code, file: String, problem: String) {
        self.code = code
        self.file = file
        self.problem = problem
    }

    /// `<file>: <problem>`.
    public var description: String { "\(file): \(problem)" }
}
