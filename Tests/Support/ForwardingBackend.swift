import CertKit
import Foundation
import Synchronization

/// A backend double: every call goes to a real backend (OpenSSL or GnuTLS) unless the test overrides that answer,
/// and every call is counted.
///
/// Each override receives the call's arguments and the real backend, so it can answer on its own (a fixed library
/// verdict) or observe and then forward (`{ input, real in ...; return try real.verifySignature(input) }`).
///
/// A signature whose signer is an anchor (`verifySignature(_:signedBy:in:)`) goes the way of every other signature,
/// through ``verifySignature(_:)``: the override, when set, sees every signature check, and
/// ``calls(to:)`` counts it once, as ``Call/verifySignature``.
///
/// ```swift
/// let coreOnly = ForwardingBackend(OpenSSLBackend(), name: "core-only",
///                                  overrides: .init(libraryVerdict: { _, _, _, _, _ in [] }))
/// ```
package final class ForwardingBackend: TrustBackend {
    /// A call of ``TrustBackend``, for ``calls(to:)``.
    package enum Call: Hashable, Sendable, CaseIterable {
        case checkImport, digest, prepareAnchors, verifySignature, librarySignatureDigest, libraryVerdict
    }

    /// The answers a test replaces; a nil member forwards the call to the real backend.
    package struct Overrides: Sendable {
        package var checkImport: (@Sendable (_ der: [UInt8], _ real: any TrustBackend) throws(BackendError) -> Void)?
        package var digest: (
            @Sendable (_ algorithm: DigestAlgorithm, _ bytes: [UInt8], _ real: any TrustBackend) throws(BackendError)
                -> [UInt8]
        )?
        package var prepareAnchors: (
            @Sendable (_ anchors: [Certificate], _ real: any TrustBackend) throws(BackendError)
                -> any PreparedAnchorStore
        )?
        package var verifySignature: (
            @Sendable (_ input: SignatureInput, _ real: any TrustBackend) throws(BackendError) -> SignatureVerdict
        )?
        package var librarySignatureDigest: (
            @Sendable (_ certificate: Certificate, _ real: any TrustBackend) -> LibrarySignatureDigest
        )?
        package var libraryVerdict: (
            @Sendable (
                _ path: CandidatePath, _ anchors: any PreparedAnchorStore, _ date: Date,
                _ crls: [CertificateRevocationList], _ real: any TrustBackend
            ) throws(BackendError) -> [LibraryFact]
        )?

        package init(
            checkImport: (@Sendable (_ der: [UInt8], _ real: any TrustBackend) throws(BackendError) -> Void)? = nil,
            digest: (
                @Sendable (_ algorithm: DigestAlgorithm, _ bytes: [UInt8], _ real: any TrustBackend)
                    throws(BackendError) -> [UInt8]
            )? = nil,
            prepareAnchors: (
                @Sendable (_ anchors: [Certificate], _ real: any TrustBackend) throws(BackendError)
                    -> any PreparedAnchorStore
            )? = nil,
            verifySignature: (
                @Sendable (_ input: SignatureInput, _ real: any TrustBackend) throws(BackendError) -> SignatureVerdict
            )? = nil,
            librarySignatureDigest: (
                @Sendable (_ certificate: Certificate, _ real: any TrustBackend) -> LibrarySignatureDigest
            )? = nil,
            libraryVerdict: (
                @Sendable (
                    _ path: CandidatePath, _ anchors: any PreparedAnchorStore, _ date: Date,
                    _ crls: [CertificateRevocationList], _ real: any TrustBackend
                ) throws(BackendError) -> [LibraryFact]
            )? = nil
        ) {
            self.checkImport = checkImport
            self.digest = digest
            self.prepareAnchors = prepareAnchors
            self.verifySignature = verifySignature
            self.librarySignatureDigest = librarySignatureDigest
            self.libraryVerdict = libraryVerdict
        }
    }

    /// The backend every call not overridden goes to.
    package let real: any TrustBackend
    /// The name reported to the core (the real backend's unless given).
    package let name: String
    /// The answers replaced.
    package let overrides: Overrides
    private let counts = LockedValue<[Call: Int]>([:])

    /// Forwards to `real`, answering with `overrides` where set; `name` defaults to `real.name`.
    package init(_ real: any TrustBackend, name: String? = nil, overrides: Overrides = Overrides()) {
        self.real = real
        self.name = name ?? real.name
        self.overrides = overrides
    }

    /// How many times `call` was made so far (overridden or forwarded).
    package func calls(to call: Call) -> Int {
        counts.withLock { $0[call, default: 0] }
    }

    private func count(_ call: Call) {
        counts.withLock { $0[call, default: 0] += 1 }
    }

    package func checkImport(_ der: [UInt8]) throws(BackendError) {
        count(.checkImport)
        if let override = overrides.checkImport { return try override(der, real) }
        try real.checkImport(der)
    }

    package func digest(_ algorithm: DigestAlgorithm, of bytes: [UInt8]) throws(BackendError) -> [UInt8] {
        count(.digest)
        if let override = overrides.digest { return try override(algorithm, bytes, real) }
        return try real.digest(algorithm, of: bytes)
    }

    package func prepareAnchors(_ anchors: [Certificate]) throws(BackendError) -> any PreparedAnchorStore {
        count(.prepareAnchors)
        if let override = overrides.prepareAnchors { return try override(anchors, real) }
        return try real.prepareAnchors(anchors)
    }

    package func verifySignature(_ input: SignatureInput) throws(BackendError) -> SignatureVerdict {
        count(.verifySignature)
        if let override = overrides.verifySignature { return try override(input, real) }
        return try real.verifySignature(input)
    }

    /// Verified as any other signature, by ``verifySignature(_:)`` (the store's cached signer key is not used).
    package func verifySignature(
        _ input: SignatureInput, signedBy anchor: Certificate, in store: any PreparedAnchorStore
    ) throws(BackendError) -> SignatureVerdict {
        try verifySignature(input)
    }

    package func librarySignatureDigest(of certificate: Certificate) -> LibrarySignatureDigest {
        count(.librarySignatureDigest)
        if let override = overrides.librarySignatureDigest { return override(certificate, real) }
        return real.librarySignatureDigest(of: certificate)
    }

    package func libraryVerdict(
        on path: CandidatePath, anchors: any PreparedAnchorStore, at date: Date, crls: [CertificateRevocationList]
    ) throws(BackendError) -> [LibraryFact] {
        count(.libraryVerdict)
        if let override = overrides.libraryVerdict { return try override(path, anchors, date, crls, real) }
        return try real.libraryVerdict(on: path, anchors: anchors, at: date, crls: crls)
    }
}
