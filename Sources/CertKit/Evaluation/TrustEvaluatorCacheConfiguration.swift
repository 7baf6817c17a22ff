extension TrustEvaluator {
    /// The caches an evaluator keeps, and whether the library's audit runs. Prepared anchor stores are
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
        /// The audit mode (default false: the core decides alone; every signature is still verified by the
        /// backend's library from the issuer's key). When true, the backend's library also runs its own path
        /// verifier (`TrustBackend.libraryVerdict(on:anchors:at:crls:)`) and reads each signature's digest
        /// (`TrustBackend.librarySignatureDigest(of:)`) on the path the core chose. A refusal a failed core check
        /// explains changes nothing; one that a known library deviation from RFC 5280 explains changes nothing; any
        /// other — and any status the backend cannot name — is a ``TrustCheck/libraryVerdict`` failure with the
        /// library's words (recoverable, never covered by an exception). It costs the library's import of every
        /// certificate and a second verification of every signature. See Docs/TrustModel.md.
        public var libraryAudit: Bool
        /// The most certificate signatures remembered as verified (0: every signature is verified on every
        /// evaluation). A link is kept only when it verified, keyed by the whole signed certificate and the whole
        /// signer key, so the shared intermediate of many chains is verified once; certificates over 16 KiB are
        /// never kept. Unlike the result cache, nothing but the signature is reused: dates, policies, anchors and
        /// revocation are judged on every evaluation.
        public var verifiedSignatureCacheCapacity: Int

        /// Creates a configuration; by default the result cache is off, the audit mode off (the core decides
        /// alone) and 1,024 verified signatures remembered.
        public init(
            resultCacheEnabled: Bool = false, resultCacheCapacity: Int = 1_024, anchorStoreCacheCapacity: Int = 32,
            libraryAudit: Bool = false, verifiedSignatureCacheCapacity: Int = 1_024
        ) {
            self.resultCacheEnabled = resultCacheEnabled
            self.resultCacheCapacity = resultCacheCapacity
            self.anchorStoreCacheCapacity = anchorStoreCacheCapacity
            self.libraryAudit = libraryAudit
            self.verifiedSignatureCacheCapacity = verifiedSignatureCacheCapacity
        }

        /// No result cache (the default): every call evaluates; prepared anchor stores are shared.
        public static let `default` = Configuration()
        /// The same as ``default``.
        public static let uncached = Configuration(resultCacheEnabled: false)
        /// The result cache on: repeated evaluations within one validity window reuse the earlier report.
        public static let cached = Configuration(resultCacheEnabled: true)
        /// The audit mode on (``libraryAudit``), no result cache.
        public static let audit = Configuration(libraryAudit: true)
    }

    /// Counters of the result cache, for tests and benchmarks.
    package struct CacheStatistics: Sendable, Hashable {
        /// Evaluations answered from the result cache.
        package var resultHits: Int
        /// Evaluations the result cache could not answer (0 when it is off).
        package var resultMisses: Int
        /// Distinct evaluations currently held.
        package var resultEntries: Int

        /// Creates statistics.
        package init(resultHits: Int = 0, resultMisses: Int = 0, resultEntries: Int = 0) {
            self.resultHits = resultHits
            self.resultMisses = resultMisses
            self.resultEntries = resultEntries
        }
    }
}
