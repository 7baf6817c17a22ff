/// Everything a trust result depends on except the verify date (which ``ResultValidityWindow`` covers).
///
/// Equality is exact: certificates, anchors, CRLs and settings compare by their full DER (`Array` equality
/// short-cuts to a pointer comparison when callers reuse the same values, the common case). Hashing is
/// deliberately cheap: each certificate contributes its length and the last 8 bytes of its DER (the tail of
/// its signature, which is high-entropy), and large lists (a 150-certificate anchor set) contribute only their
/// count and a few sampled members. A weak hash can only cost a bucket collision, never a wrong hit.
struct ResultCacheKey: Hashable, Sendable {
    let certificates: [Certificate]
    let additionalIntermediates: [Certificate]
    let anchors: [Certificate]
    let anchorsOnly: Bool
    let policies: [TrustPolicy]
    let trustSettings: TrustSettings
    let exceptions: TrustExceptions?
    let crls: [CertificateRevocationList]
    let pins: [SPKIPin]
    let maxDepth: Int
    let backend: String

    init(_ evaluation: TrustEvaluation, backend: String) {
        certificates = evaluation.certificates
        additionalIntermediates = evaluation.additionalIntermediates
        anchors = evaluation.anchors
        anchorsOnly = evaluation.anchorsOnly
        policies = evaluation.policies
        trustSettings = evaluation.trustSettings
        exceptions = evaluation.exceptions
        crls = evaluation.crls
        pins = evaluation.pins
        maxDepth = evaluation.maxDepth
        self.backend = backend
    }

    func hash(into hasher: inout Hasher) {
        Self.combine(certificates.count, { certificates[$0].derEncoded }, into: &hasher)
        Self.combine(additionalIntermediates.count, { additionalIntermediates[$0].derEncoded }, into: &hasher)
        Self.combine(anchors.count, { anchors[$0].derEncoded }, into: &hasher)
        Self.combine(trustSettings.alwaysTrust.count, { trustSettings.alwaysTrust[$0].derEncoded }, into: &hasher)
        Self.combine(trustSettings.distrust.count, { trustSettings.distrust[$0].derEncoded }, into: &hasher)
        Self.combine(crls.count, { crls[$0].derEncoded }, into: &hasher)
        hasher.combine(anchorsOnly)
        hasher.combine(policies)
        hasher.combine(exceptions)
        hasher.combine(pins)
        hasher.combine(maxDepth)
        hasher.combine(backend)
    }

    /// Combines `count` and the fingerprints of at most the first and the last 4 of `count` encodings.
    private static func combine(_ count: Int, _ encoding: (Int) -> [UInt8], into hasher: inout Hasher) {
        hasher.combine(count)
        for index in 0..<min(count, 4) { hasher.combine(fingerprint(encoding(index))) }
        for index in max(4, count - 4)..<max(4, count) { hasher.combine(fingerprint(encoding(index))) }
    }

    /// The length and the last 8 bytes of `der`, read without hashing the whole encoding.
    static func fingerprint(_ der: [UInt8]) -> UInt64 {
        der.withUnsafeBytes { raw -> UInt64 in
            guard raw.count >= 8 else { return raw.reduce(UInt64(raw.count)) { $0 << 8 | UInt64($1) } }
            return raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self) ^ UInt64(raw.count)
        }
    }
}
