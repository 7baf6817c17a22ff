import Foundation
import Synchronization

/// An X.509 certificate, parsed in pure Swift from its DER encoding.
///
/// Two certificates are equal, and hash alike, exactly when their DER encodings are byte-identical.
/// Parsing is strict (DER, RFC 5280) about the envelope; problems inside known extensions are
/// recorded on `extensions` (`CertificateExtensions/malformed`, `CertificateExtensions/duplicates`)
/// so that evaluation can report them instead of failing to decode.
public struct Certificate: Sendable, Hashable, CustomStringConvertible {
    /// The parsed fields live in one immutable object, so copying a certificate (into sets, paths, reports)
    /// costs one reference count instead of one per field.
    private final class Storage: Sendable {
        let derEncoded: [UInt8]
        /// Where the tbsCertificate lies in `derEncoded` (kept as a range: a copy is made only when asked for).
        let tbsRange: Range<Int>
        let version: Int
        let serialNumber: [UInt8]
        let signatureAlgorithm: SignatureAlgorithm
        /// Where the signature value lies in `derEncoded`.
        let signatureRange: Range<Int>
        let issuer: DistinguishedName
        let subject: DistinguishedName
        let notBefore: Date
        let notAfter: Date
        let publicKey: PublicKeyInfo
        let deferredExtensions: DeferredExtensions
        var extensions: CertificateExtensions { deferredExtensions.value(decoding: derEncoded).value }
        /// Subject matches issuer (RFC 5280 §7.1), decided on first use (0: not yet, 1: no, 2: yes): a name
        /// comparison that is not byte for byte needs both names' attributes, which nothing else may need.
        private let selfIssued = Atomic<UInt8>(0)
        let tbsSignatureAlgorithmMatches: Bool
        /// The hash of the whole DER with the process's random seed, computed on first use (0: not yet).
        private let derHash = Atomic<Int>(0)
        /// The first SHA-256 fingerprint an evaluator's backend computed for this certificate, with that evaluator's
        /// token: what ``Certificate/fingerprint(for:compute:)`` gives the same evaluator again.
        let keptFingerprint = PublishedReference<KeptFingerprint>()

        /// Every byte of the DER, hashed once per certificate: a set of certificates cannot be made slow by
        /// encodings that agree on some bytes, and later hashing costs one integer.
        var hashOfDER: Int {
            let stored = derHash.load(ordering: .relaxed)
            if stored != 0 { return stored }
            let computed = Hasher.hash(encoding: derEncoded)
            let value = computed == 0 ? 1 : computed
            derHash.store(value, ordering: .relaxed)
            return value
        }

        var isSelfIssued: Bool {
            let stored = selfIssued.load(ordering: .relaxed)
            if stored != 0 { return stored == 2 }
            let matches = subject.matches(issuer)
            selfIssued.store(matches ? 2 : 1, ordering: .relaxed)
            return matches
        }

        init(
            derEncoded: [UInt8], tbsRange: Range<Int>, version: Int, serialNumber: [UInt8],
            signatureAlgorithm: SignatureAlgorithm, signatureRange: Range<Int>, issuer: DistinguishedName,
            subject: DistinguishedName, notBefore: Date, notAfter: Date, publicKey: PublicKeyInfo,
            extensions: DeferredExtensions, tbsSignatureAlgorithmMatches: Bool
        ) {
            self.tbsSignatureAlgorithmMatches = tbsSignatureAlgorithmMatches
            self.derEncoded = derEncoded
            self.tbsRange = tbsRange
            self.version = version
            self.serialNumber = serialNumber
            self.signatureAlgorithm = signatureAlgorithm
            self.signatureRange = signatureRange
            self.issuer = issuer
            self.subject = subject
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.publicKey = publicKey
            self.deferredExtensions = extensions
        }
    }

    private let storage: Storage

    /// The complete DER encoding of the certificate.
    public var derEncoded: [UInt8] { storage.derEncoded }
    /// The DER encoding of the `tbsCertificate` (the signed part).
    package var tbsCertificateBytes: [UInt8] { Array(storage.derEncoded[storage.tbsRange]) }
    /// The X.509 version: 1, 2 or 3.
    public var version: Int { storage.version }
    /// The serial number's content octets (two's complement, big-endian, as encoded).
    public var serialNumber: [UInt8] { storage.serialNumber }
    /// The outer signature algorithm.
    public var signatureAlgorithm: SignatureAlgorithm { storage.signatureAlgorithm }
    /// The signature value (the BIT STRING's bytes, without the unused-bits octet).
    package var signatureBytes: [UInt8] { Array(storage.derEncoded[storage.signatureRange]) }
    /// The issuer name.
    public var issuer: DistinguishedName { storage.issuer }
    /// The subject name.
    public var subject: DistinguishedName { storage.subject }
    /// The start of the validity period.
    public var notBefore: Date { storage.notBefore }
    /// The end of the validity period (inclusive, per RFC 5280).
    public var notAfter: Date { storage.notAfter }
    /// True when the tbsCertificate's `signature` AlgorithmIdentifier is byte for byte the outer
    /// `signatureAlgorithm` (RFC 5280 §4.1.1.2) and the signature BIT STRING has no unused bits; a signature
    /// of a certificate where this is false never verifies.
    package var tbsSignatureAlgorithmMatches: Bool { storage.tbsSignatureAlgorithmMatches }
    /// The subject public key info.
    public var publicKey: PublicKeyInfo { storage.publicKey }
    /// The extensions, raw and decoded.
    package var extensions: CertificateExtensions { storage.extensions }
    /// The extensions read in place (``ExtensionsView``): no copy of the struct.
    var extensionsView: ExtensionsView {
        ExtensionsView(box: storage.deferredExtensions.value(decoding: storage.derEncoded))
    }
    /// True when the extensions were left to decode on first use (see `DeferredExtensions`).
    var extensionsDecodedOnFirstUse: Bool { storage.deferredExtensions.isDeferred }

    /// Parses a DER-encoded certificate. The input must be exactly one certificate: trailing bytes are an error.
    /// - Throws: ``CertificateDecodingError``; of kind ``CertificateDecodingError/Code/limitExceeded`` when the
    ///   certificate exceeds `limits` (attributes per name, extensions, size).
    public init(derEncoded: [UInt8], limits: Limits = .default) throws(CertificateDecodingError) {
        self = try X509Parser.parseCertificate(derEncoded, limits: limits)
    }

    /// Memberwise initializer used by the parser; `tbsRange` and `signatureRange` are ranges of `derEncoded`.
    init(
        derEncoded: [UInt8], tbsRange: Range<Int>, version: Int, serialNumber: [UInt8],
        signatureAlgorithm: SignatureAlgorithm, signatureRange: Range<Int>, issuer: DistinguishedName,
        subject: DistinguishedName, notBefore: Date, notAfter: Date, publicKey: PublicKeyInfo,
        extensions: DeferredExtensions, tbsSignatureAlgorithmMatches: Bool = true
    ) {
        storage = Storage(
            derEncoded: derEncoded, tbsRange: tbsRange, version: version,
            serialNumber: serialNumber, signatureAlgorithm: signatureAlgorithm, signatureRange: signatureRange,
            issuer: issuer, subject: subject, notBefore: notBefore, notAfter: notAfter, publicKey: publicKey,
            extensions: extensions, tbsSignatureAlgorithmMatches: tbsSignatureAlgorithmMatches)
    }

    public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.derEncoded == rhs.storage.derEncoded
    }

    /// Hashes the whole DER, once per certificate (the value is kept in the shared storage; later calls combine
    /// one integer), as every encoding is hashed: all of its bytes, with the process's random seed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.hashOfDER)
    }

    /// The hash of the whole DER with the process's random seed, computed once per certificate (what
    /// ``hash(into:)`` combines): a key that holds the DER can hash this one integer instead of every byte.
    var hashOfDER: Int { storage.hashOfDER }

    /// The SHA-256 of the DER that `owner`'s evaluator computes with `compute` (its backend's library). The first
    /// evaluator to compute one for this certificate object keeps it with the certificate, so a certificate object
    /// that many of its evaluations share (an anchor, a batch's intermediates) is digested once; any other owner,
    /// or another certificate object with the same DER, computes every time. A failure is not kept.
    func fingerprint(
        for owner: FingerprintOwner, compute: ([UInt8]) throws(BackendError) -> [UInt8]
    ) throws(BackendError) -> [UInt8] {
        if let kept = storage.keptFingerprint.load() {
            if kept.owner === owner { return kept.digest }
            return try compute(storage.derEncoded)
        }
        let digest = try compute(storage.derEncoded)
        _ = storage.keptFingerprint.storeIfNil(KeptFingerprint(owner: owner, digest: digest))
        return digest
    }

    /// True when the subject is `name`, byte for byte (no copy of the subject is made).
    func hasSubject(exactly name: DistinguishedName) -> Bool { storage.subject.derEncoded == name.derEncoded }

    /// The subject in RFC 4514 form.
    public var description: String { subject.description }

    /// True when subject and issuer names match (RFC 5280 §7.1). Says nothing about the signature.
    public var isSelfIssued: Bool { storage.isSelfIssued }

    /// True when the certificate looks self-signed: self-issued, and its authority key identifier, when both
    /// identifiers are present, is its own subject key identifier. (The signature itself is the backend's job.)
    public var isSelfSigned: Bool {
        guard isSelfIssued else { return false }
        guard let aki = extensions.authorityKeyIdentifier, let ski = extensions.subjectKeyIdentifier else { return true }
        return aki == ski
    }

    /// True when `date` lies within `notBefore ... notAfter`.
    public func isValid(at date: Date) -> Bool { notBefore <= date && date <= notAfter }
}

/// The identity of one evaluator for the fingerprints kept with certificates (``Certificate/fingerprint(for:compute:)``):
/// an object, held by what it keeps, so that no other evaluator (whose backend may digest otherwise) is taken for it.
final class FingerprintOwner: Sendable {}

/// A fingerprint kept with a certificate and the evaluator that computed it.
final class KeptFingerprint: Sendable {
    let owner: FingerprintOwner
    let digest: [UInt8]

    init(owner: FingerprintOwner, digest: [UInt8]) {
        self.owner = owner
        self.digest = digest
    }
}

