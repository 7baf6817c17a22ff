import Foundation

/// Digests a backend computes with its library.
public enum DigestAlgorithm: String, Sendable, Hashable, CaseIterable {
    case sha1, sha256
}

/// A failure of the backend itself (not a trust failure): maps to `otherError`, or to an input error when
/// the library refuses a certificate the core accepted.
public struct BackendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A one-line description including the library's own reason where it has one.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Anchors compiled into a backend's native store (an `X509_STORE`, a GnuTLS trust list) once, then shared
/// read-only by any number of threads. Instances are opaque to the core; only the backend that made one uses it.
public protocol PreparedAnchorStore: AnyObject, Sendable {
    /// The anchors the store was built from, in the order given.
    var anchors: [Certificate] { get }
}

/// One candidate path, chosen by the core's chain builder, for the backend to verify.
public struct CandidatePath: Sendable, Hashable {
    /// The path, leaf first. When ``endsAtAnchor`` is true the last certificate is one of the prepared anchors.
    public var certificates: [Certificate]
    /// True when the last certificate is an anchor; false for an incomplete path the builder could not finish.
    public var endsAtAnchor: Bool

    /// Creates a path.
    public init(certificates: [Certificate], endsAtAnchor: Bool) {
        self.certificates = certificates
        self.endsAtAnchor = endsAtAnchor
    }
}

/// What a backend found on one candidate path: failed checks per certificate (index 0 = leaf).
public struct PathFindings: Sendable, Hashable {
    /// Failed checks, one set per certificate of the path.
    public var checks: [Set<TrustCheck>]
    /// The library's own words for each failure, for diagnostics (e.g. `certificate has expired`).
    public var notes: [String]

    /// Findings with no failure for a path of `count` certificates.
    public init(count: Int) {
        self.checks = Array(repeating: [], count: count)
        self.notes = []
    }

    /// Records `check` on certificate `index` (ignored when out of range).
    public mutating func record(_ check: TrustCheck, at index: Int, note: String? = nil) {
        guard checks.indices.contains(index) else { return }
        checks[index].insert(check)
        if let note { notes.append("[\(index)] \(check.name): \(note)") }
    }
}

/// A cryptographic library that certkit can verify paths with (DESIGN §2).
///
/// A backend imports certificates, verifies signatures along **one** candidate path, checks RFC 5280 basics
/// (validity at the verify date, basic constraints, path length, CA key usage), CRL revocation, and computes
/// digests. It never makes the policy decisions the core owns (host names, EKU, key-size and hash floors,
/// Apple rules, pins, trust settings, exceptions, aggregation), and it never builds paths from a pool.
/// Implementations are `Sendable` and safe to call from any number of threads at once.
public protocol TrustBackend: Sendable {
    /// A short stable name, e.g. `openssl` or `gnutls`.
    var name: String { get }

    /// Imports `der` with the library, which must consume exactly all of it.
    /// - Throws: ``BackendError`` naming the library's reason when it refuses the bytes.
    func checkImport(_ der: [UInt8]) throws(BackendError)

    /// Computes a digest with the library.
    func digest(_ algorithm: DigestAlgorithm, of bytes: [UInt8]) throws(BackendError) -> [UInt8]

    /// Compiles anchors into a native store, once; the result is shared across evaluations and threads.
    func prepareAnchors(_ anchors: [Certificate]) throws(BackendError) -> any PreparedAnchorStore

    /// Verifies one candidate path at `date`, with `crls` for revocation when any are given.
    /// Signature failures are reported as ``TrustCheck/signature`` on the certificate whose signature fails.
    /// - Parameters:
    ///   - path: leaf first; when `path.endsAtAnchor`, its last certificate is in `anchors`.
    ///   - anchors: a store this backend prepared.
    func verify(
        _ path: CandidatePath, anchors: any PreparedAnchorStore, at date: Date, crls: [CertificateRevocationList]
    ) throws(BackendError) -> PathFindings

    /// Parses `der` with the library and reports the fields it reads (names, serial, validity, SAN, basic
    /// constraints, key), so tests can check that the core's parser and the library agree.
    /// - Throws: ``BackendError`` when the library refuses the certificate or a field it cannot read.
    func libraryFields(of der: [UInt8]) throws(BackendError) -> LibraryCertificateFields
}
