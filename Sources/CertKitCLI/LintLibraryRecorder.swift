import CertKit
import Foundation

/// A backend that forwards every call to a real one and keeps what the real library's own verifier said
/// (``TrustBackend/libraryVerdict(on:anchors:at:crls:)``) in the audit mode: the openssl and gnutls columns of
/// `certkit lint` are those facts, on the path the core chose, as the audit mode asks for them. One recorder
/// serves one evaluation.
final class LintLibraryRecorder: TrustBackend, @unchecked Sendable {
    // @unchecked Sendable: the only mutable state, `recorded`, is read and written under `lock`.
    let real: any TrustBackend
    private let lock = NSLock()
    private var recorded: [LibraryFact]?

    init(_ real: any TrustBackend) { self.real = real }

    var name: String { real.name }

    /// What the library said, or nil when it was not asked (a path with a key the core refuses is never shown to
    /// it, and a backend failure stops the evaluation first).
    var facts: [LibraryFact]? { lock.withLock { recorded } }

    func checkImport(_ der: [UInt8]) throws(BackendError) { try real.checkImport(der) }

    func digest(_ algorithm: DigestAlgorithm, of bytes: [UInt8]) throws(BackendError) -> [UInt8] {
        try real.digest(algorithm, of: bytes)
    }

    func prepareAnchors(_ anchors: [Certificate]) throws(BackendError) -> any PreparedAnchorStore {
        try real.prepareAnchors(anchors)
    }

    func verifySignature(_ input: SignatureInput) throws(BackendError) -> SignatureVerdict {
        try real.verifySignature(input)
    }

    func verifySignature(
        _ input: SignatureInput, signedBy anchor: Certificate, in store: any PreparedAnchorStore
    ) throws(BackendError) -> SignatureVerdict {
        try real.verifySignature(input, signedBy: anchor, in: store)
    }

    func librarySignatureDigest(of certificate: Certificate) -> LibrarySignatureDigest {
        real.librarySignatureDigest(of: certificate)
    }

    func libraryVerdict(
        on path: CandidatePath, anchors: any PreparedAnchorStore, at date: Date, crls: [CertificateRevocationList]
    ) throws(BackendError) -> [LibraryFact] {
        let facts = try real.libraryVerdict(on: path, anchors: anchors, at: date, crls: crls)
        lock.withLock { recorded = facts }
        return facts
    }

    /// True when a fact is a refusal by the library: every status but `noCRL` (certkit gives the library only the
    /// CRLs it has; no CRL for a certificate is no refusal) and `otherChain` (the library accepted a chain other
    /// than the path, which is no refusal either).
    static func isRefusal(_ fact: LibraryFact) -> Bool {
        fact.status != .noCRL && fact.status != .otherChain
    }
}
