extension TrustEvaluator {
    /// The caches an evaluator keeps. Prepared anchor stores are always shared. The result cache is off by
    /// default, as SecTrust keeps no results across evaluations: turn it on (``cached``) for a server or proxy
    /// that evaluates the same chains again and again (same inputs, verify dates within one validity window).
    public struct Configuration: Sendable, Hashable {
        /// When true, reports are reused for a repeated evaluation (same certificates, anchors, policies,
        /// settings, exceptions, CRLs, pins and depth) at a verify date within the same validity window, i.e. no
        /// certificate or CRL involved changes state between the two dates.
        public var resultCacheEnabled: Bool
        /// The most distinct evaluations the result cache holds (least recently used evicted first).
        public var resultCacheCapacity: Int
        /// The most prepared anchor stores kept (one per distinct anchor set).
        public var anchorStoreCacheCapacity: Int

        /// Creates a configuration; by default the result cache is off.
        public init(resultCacheEnabled: Bool = false, resultCacheCapacity: Int = 1_024, anchorStoreCacheCapacity: Int = 32) {
            self.resultCacheEnabled = resultCacheEnabled
            self.resultCacheCapacity = resultCacheCapacity
            self.anchorStoreCacheCapacity = anchorStoreCacheCapacity
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
