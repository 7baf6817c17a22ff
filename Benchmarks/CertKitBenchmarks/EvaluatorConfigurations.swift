import CertKit

extension TrustEvaluator.Configuration {
    /// No result cache and no verified-signature cache: every evaluation verifies every signature, as the raw C
    /// baselines do on every call (the benchmarks that measure a repeat use their own configuration).
    static let verifyingEverySignature = TrustEvaluator.Configuration(verifiedSignatureCacheCapacity: 0)
}
