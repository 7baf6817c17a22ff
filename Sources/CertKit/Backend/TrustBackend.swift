import Foundation

/// Digests a backend computes with its library.
package enum DigestAlgorithm: String, Sendable, Hashable, CaseIterable {
    case sha1, sha256
}

/// A failure of the backend itself (not a trust failure): maps to `otherError`, or to an input error when
/// the library refuses a certificate the core accepted. Errors compare and hash by ``code``.
public struct BackendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. Codes may be added in later versions: compare with `==` and give a `switch` a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: String, Sendable { case refusedInput, library, wrongBackend }

        fileprivate let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The library refused bytes the core had accepted (a certificate, key or CRL it does not import, or
        /// bytes left over after what it read).
        public static let refusedInput = Code(.refusedInput)
        /// The library failed as a library (initialisation, an allocation, a result outside its documented ones).
        public static let library = Code(.library)
        /// A value made by another backend was given to this one (a prepared anchor store, a path whose anchor is
        /// not in the store): a programming error, never a verdict.
        public static let wrongBackend = Code(.wrongBackend)

        /// The code's stable name (`refusedInput`, ...).
        public var description: String { backing.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A one-line description including the library's own reason where it has one.
    public let message: String

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Errors are equal when their codes are: the words are the library's.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { message }
}

/// Anchors compiled into a backend's native store (an `X509_STORE`, a GnuTLS trust list) once, then shared
/// read-only by any number of threads. Instances are opaque to the core; only the backend that made one uses it.
package protocol PreparedAnchorStore: AnyObject, Sendable {
    /// The anchors the store was built from, in the order given.
    var anchors: [Certificate] { get }
}

/// One candidate path, chosen by the core's chain builder, for the backend to verify.
package struct CandidatePath: Sendable, Hashable {
    /// The path, leaf first. When ``endsAtAnchor`` is true the last certificate is one of the prepared anchors.
    package var certificates: [Certificate]
    /// True when the last certificate is an anchor; false for an incomplete path the builder could not finish.
    package var endsAtAnchor: Bool

    /// Creates a path.
    package init(certificates: [Certificate], endsAtAnchor: Bool) {
        self.certificates = certificates
        self.endsAtAnchor = endsAtAnchor
    }
}

/// What was found on one candidate path: failed checks per certificate (index 0 = leaf), each with the rules
/// (``TrustRule``) that recorded it.
package struct PathFindings: Sendable, Hashable {
    /// Failed checks, one set per certificate of the path.
    package var checks: [Set<TrustCheck>]
    /// For each certificate, the rules that recorded each failed check, in the order recorded (no repeats).
    package var rules: [[TrustCheck: [TrustRule]]]
    /// The library's own words for each failure, for diagnostics (e.g. `certificate has expired`).
    package var notes: [String]

    /// Findings with no failure for a path of `count` certificates.
    package init(count: Int) {
        self.checks = Array(repeating: [], count: count)
        self.rules = Array(repeating: [:], count: count)
        self.notes = []
    }

    /// Records `rule`'s failure on certificate `index` (ignored when out of range) as `check`, by default the
    /// rule's own check.
    package mutating func record(_ rule: TrustRule, as check: TrustCheck? = nil, at index: Int, note: String? = nil) {
        guard checks.indices.contains(index) else { return }
        let check = check ?? rule.check
        checks[index].insert(check)
        if !(rules[index][check]?.contains(rule) ?? false) { rules[index][check, default: []].append(rule) }
        if let note { notes.append("[\(index)] \(check.name) (\(rule.id)): \(note)") }
    }

    /// Records `check` on certificate `index` under its generic rule (`TrustRules/generic(for:)`).
    package mutating func record(_ check: TrustCheck, at index: Int, note: String? = nil) {
        record(TrustRules.generic(for: check), as: check, at: index, note: note)
    }

    /// Adds everything `other` (a path of the same length) found.
    package mutating func merge(_ other: PathFindings) {
        // A certificate `other` found nothing on is skipped: writing to it would copy these findings' arrays when
        // they are shared, for nothing (most checks find nothing on most certificates).
        for index in other.checks.indices where checks.indices.contains(index) && !other.checks[index].isEmpty {
            for (check, rules) in other.rules[index] {
                for rule in rules { record(rule, as: check, at: index) }
            }
            checks[index].formUnion(other.checks[index])
        }
        if !other.notes.isEmpty { notes += other.notes }
    }

    /// Removes `check` (and its rules) from certificate `index`.
    package mutating func remove(_ check: TrustCheck, at index: Int) {
        guard checks.indices.contains(index) else { return }
        checks[index].remove(check)
        rules[index][check] = nil
    }

    /// What these findings hold that `earlier` (the same findings before more were recorded) did not: the rules
    /// recorded since, and the notes appended since.
    package func additions(since earlier: PathFindings) -> PathFindings {
        var added = PathFindings(count: checks.count)
        for index in rules.indices {
            for (check, recorded) in rules[index] {
                let before = earlier.rules.indices.contains(index) ? earlier.rules[index][check] ?? [] : []
                for rule in recorded where !before.contains(rule) { added.record(rule, as: check, at: index) }
            }
        }
        added.notes = Array(notes.dropFirst(earlier.notes.count))
        return added
    }

    /// The first rule that recorded `check` on certificate `index`.
    package func rule(for check: TrustCheck, at index: Int) -> TrustRule? {
        guard rules.indices.contains(index) else { return nil }
        return rules[index][check]?.first
    }
}

/// What a library says about one signature: valid only when it positively verified it.
package enum SignatureVerdict: Sendable, Hashable {
    /// The library verified the signature with the signer's key.
    case valid
    /// Anything else (bad signature, unsupported key or algorithm, library refusal), with the library's reason.
    case invalid(String)
}

/// One signature for a backend to verify: the scheme (from the core's allowlist), the signed bytes, the
/// signature value and the signer's SubjectPublicKeyInfo. The backend never chooses the algorithm itself.
package struct SignatureInput: Sendable, Hashable {
    /// How to verify: primitive, digest and parameters.
    package var scheme: SignatureScheme
    /// The DER bytes that were signed (tbsCertificate or tbsCertList).
    package var signedBytes: [UInt8]
    /// The signature value.
    package var signature: [UInt8]
    /// The signer's public key.
    package var signerKey: PublicKeyInfo

    /// Creates an input.
    package init(scheme: SignatureScheme, signedBytes: [UInt8], signature: [UInt8], signerKey: PublicKeyInfo) {
        self.scheme = scheme
        self.signedBytes = signedBytes
        self.signature = signature
        self.signerKey = signerKey
    }
}

/// How a library reads the digest of a certificate's signature algorithm, to cross-check the core's allowlist.
package enum LibrarySignatureDigest: Sendable, Hashable {
    /// The library names this digest.
    case digest(HashAlgorithm)
    /// The library knows the algorithm, and it has no separate digest (EdDSA).
    case none
    /// The library does not know the algorithm (the core's allowlist decides alone).
    case unknown
}

/// A cryptographic library that certkit verifies with (Docs/Architecture.md, "One owner per rule").
///
/// The core owns every rule: chain building, validity, CA constraints, path length, key usage, names, algorithm
/// allowlist and floors, CRL validation and revocation, trust settings, aggregation. A backend does only what
/// needs the library: import, digests, verifying one signature with a given key and scheme, and — for the audit
/// mode only — the library's own verdict on a whole path, reported as neutral facts the core interprets
/// (`LibraryVerdictInterpretation`). Implementations are `Sendable`
/// and safe to call from any number of threads at once.
package protocol TrustBackend: Sendable {
    /// A short stable name, e.g. `openssl` or `gnutls`.
    var name: String { get }

    /// Imports `der` with the library, which must consume exactly all of it.
    /// - Throws: ``BackendError`` naming the library's reason when it refuses the bytes.
    func checkImport(_ der: [UInt8]) throws(BackendError)

    /// Computes a digest with the library.
    func digest(_ algorithm: DigestAlgorithm, of bytes: [UInt8]) throws(BackendError) -> [UInt8]

    /// Compiles anchors into a native store, once; the result is shared across evaluations and threads.
    func prepareAnchors(_ anchors: [Certificate]) throws(BackendError) -> any PreparedAnchorStore

    /// Verifies one signature exactly as `input` describes it. Returns ``SignatureVerdict/valid`` only when the
    /// library positively verified it; everything else is ``SignatureVerdict/invalid(_:)``.
    func verifySignature(_ input: SignatureInput) throws(BackendError) -> SignatureVerdict

    /// Verifies `input` as ``verifySignature(_:)`` does; its signer is `anchor`, one of the anchors `store` was
    /// prepared from, so a backend may keep the signer's key with the store (built once per anchor set, as the
    /// store is) rather than in its own caches. The default is ``verifySignature(_:)``.
    func verifySignature(
        _ input: SignatureInput, signedBy anchor: Certificate, in store: any PreparedAnchorStore
    ) throws(BackendError) -> SignatureVerdict

    /// The digest the library reads in `certificate`'s signature algorithm (asked in the audit mode only).
    func librarySignatureDigest(of certificate: Certificate) -> LibrarySignatureDigest

    /// The library's own verifier run on exactly `path` at `date` with `crls` (already validated by the core),
    /// in the audit mode only. Every status the library reports is turned into a neutral ``LibraryFact`` (what the
    /// library said, where); a code or bit the backend has no name for is ``LibraryFact/Status/unknown``. The
    /// backend does not judge: the core decides what each fact means (`LibraryVerdictInterpretation`).
    /// - Parameters:
    ///   - path: leaf first; when `path.endsAtAnchor`, its last certificate is in `anchors`.
    ///   - anchors: a store this backend prepared.
    ///   - date: the verify date.
    ///   - crls: the CRLs the core validated for this path.
    func libraryVerdict(
        on path: CandidatePath, anchors: any PreparedAnchorStore, at date: Date, crls: [CertificateRevocationList]
    ) throws(BackendError) -> [LibraryFact]
}

extension TrustBackend {
    package func verifySignature(
        _ input: SignatureInput, signedBy anchor: Certificate, in store: any PreparedAnchorStore
    ) throws(BackendError) -> SignatureVerdict {
        try verifySignature(input)
    }
}

/// A backend that can report a certificate's fields as its library reads them (package only: tests check that
/// the core's parser and the library agree).
package protocol LibraryFieldsReader: TrustBackend {
    /// Parses `der` with the library and reports the fields it reads (names, serial, validity, SAN, basic
    /// constraints, key).
    /// - Throws: ``BackendError`` when the library refuses the certificate or a field it cannot read.
    func libraryFields(of der: [UInt8]) throws(BackendError) -> LibraryCertificateFields
}
