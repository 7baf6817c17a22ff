extension TrustEvaluator {
    /// The caches an evaluator keeps, and whether the library's second opinion runs. Prepared anchor stores are
    /// always shared. The result cache is off by default, as SecTrust keeps no results across evaluations: turn it
    /// on (``cached``) for a server or proxy that evaluates the same chains again and again (same inputs, verify
    /// dates within one validity window).
    public struct Configuration: Sendable, Hashable {
        /// When true, reports are reused for a repeated evaluation (same certificates, anchors, policies,
        /// settings, exceptions, CRLs, pins and depth) at a verify date within the same validity window, i.e. no
        /// certificate or CRL involved changes state between the two dates.
        public var resultCacheEnabled: Bool
        /// The most distinct evaluations the result cache holds (least recently used evicted first).
        public var resultCacheCapacity: Int
        /// The most prepared anchor stores kept (one per distinct anchor set).
        public var anchorStoreCacheCapacity: Int
        /// When true (the default), every candidate path the core's rules leave is also given to the library's
        /// own path verifier (``TrustBackend/libraryVerdict(on:anchors:at:crls:)``), and each certificate's
        /// signature digest is read by the library too (``TrustBackend/librarySignatureDigest(of:)``): a second
        /// opinion that can only add failures. It costs the library's import of every certificate not seen before
        /// and a second verification of every signature. When false, the core's own checks decide alone (each
        /// signature is still verified by the library, from the issuer's key): the verdicts are the same on every
        /// input certkit's tests know; the second opinion stays as defence in depth against a rule the core gets
        /// wrong. See the architecture and trust model documents.
        public var librarySecondOpinion: Bool
        /// The most certificate signatures remembered as verified (0: every signature is verified on every
        /// evaluation). A link is kept only when it verified, keyed by the whole signed certificate and the whole
        /// signer key, so the shared intermediate of many chains is verified once; certificates over 16 KiB are
        /// never kept. Unlike the result cache, nothing but the signature is reused: dates, policies, anchors and
        /// revocation are judged on every evaluation.
        public var verifiedSignatureCacheCapacity: Int

        /// Creates a configuration; by default the result cache is off, the library's second opinion on and
        /// 1,024 verified signatures remembered.
        public init(
            resultCacheEnabled: Bool = false, resultCacheCapacity: Int = 1_024, anchorStoreCacheCapacity: Int = 32,
            librarySecondOpinion: Bool = true, verifiedSignatureCacheCapacity: Int = 1_024
        ) {
            self.resultCacheEnabled = resultCacheEnabled
            self.resultCacheCapacity = resultCacheCapacity
            self.anchorStoreCacheCapacity = anchorStoreCacheCapacity
            self.librarySecondOpinion = librarySecondOpinion
            self.verifiedSignatureCacheCapacity = verifiedSignatureCacheCapacity
        }

        /// No result cache (the default): every call evaluates; prepared anchor stores are shared.
        public static let `default` = Configuration()
        /// The same as ``default``.
        public static let uncached = Configuration(resultCacheEnabled: false)
        /// The result cache on: repeated evaluations within one validity window reuse the earlier report.
        public static let cached = Configuration(resultCacheEnabled: true)
    }

    /// Counters of the result cache, for tests and benchmarks.
    public struct CacheStatistics: Sendable, Hashable {
        /// Evaluations answered from the result cache.
        public var resultHits: Int
        /// Evaluations the result cache could not answer (0 when it is off).
        public var resultMisses: Int
        /// Distinct evaluations currently held.
        public var resultEntries: Int

        /// Creates statistics.
        public init(resultHits: Int = 0, resultMisses: Int = 0, resultEntries: Int = 0) {
            self.resultHits = resultHits
            self.resultMisses = resultMisses
            self.resultEntries = resultEntries
        }
    }
}
