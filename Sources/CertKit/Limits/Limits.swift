/// Every bound certkit puts on the work and memory one input may cost, in one place.
///
/// Inside the bounds every per-input cost is linear or n·log n; a bound that is hit fails closed:
/// - a **parsing** bound makes decoding throw ``CertificateDecodingError`` of kind
///   ``CertificateDecodingError/Code/limitExceeded`` (the command line reports an input error, exit 1);
/// - an **evaluation** bound makes the evaluation fail with ``TrustCheck/resourceLimit``, which is fatal: no
///   exception, trust setting or other path turns it into a pass (exit 11);
/// - a **path-building** bound ends the search; when no path was found by then the report adds
///   ``TrustCheck/pathBuildingLimit``.
///
/// The defaults leave room for every real certificate and bundle seen in practice (the system bundle has ~150
/// certificates; real names have under 20 attributes, real certificates under 20 extensions). Tighten them for
/// hostile environments:
///
/// ```swift
/// var limits = Limits.default
/// limits.maxPoolCertificates = 50
/// let bundle = try CertificateBundle.decode(bytes, limits: limits)
/// let evaluator = TrustEvaluator(backend: OpenSSLBackend(), limits: limits)
/// ```
///
/// | bound | default | applies to |
/// |---|---|---|
/// | ``maxInputBytes`` | 32 MiB | one input (file, standard input, bytes given to a decoder) |
/// | ``maxPEMBlocks`` | 10,000 | PEM blocks of any label in one input |
/// | ``maxCertificatesPerInput`` | 10,000 | certificates in one input (PEM, DER sequence, PKCS#7) |
/// | ``maxAttributesPerName`` | 64 | attributes in one name, over all its RDNs |
/// | ``maxExtensionsPerCertificate`` | 64 | extensions of one certificate or CRL |
/// | ``maxCRLEntries`` | 100,000 | revoked entries of one CRL, and of all CRLs of one evaluation |
/// | ``maxCRLs`` | 1,000 | CRLs given to one evaluation (each may cost a signature verification) |
/// | ``maxOCSPResponses`` | 100 | OCSP responses given to one evaluation, and answers and certificates in one response |
/// | ``maxPoolCertificates`` | 10,000 | presented certificates after the leaf plus extra intermediates, those left out undecoded included |
/// | ``maxAnchors`` | 1,000 | anchors, trust-setting certificates and (when used) the system bundle |
/// | ``maxNameConstraintComparisons`` | 2^20 | names × name constraints over one candidate path |
/// | ``maxPolicyGraphNodes`` | 10,000 | nodes of the valid policy graph (RFC 5280 §6.1) of one candidate path |
/// | ``maxDepth`` | 10 | certificates in one path, anchor included |
/// | ``maxExpansions`` | 2,000 | partial paths expanded |
/// | ``maxCandidates`` | 32 | candidate paths handed to the backend |
/// | ``maxQueued`` | 20,000 | partial paths waiting |
/// | ``maxIssuerComparisons`` | 65,536 | issuer candidates examined over one search |
/// | ``maxFetchesPerEvaluation`` | 8 | network requests of one evaluation (only with network fetching allowed) |
/// | ``fetchTimeout`` | 5 s | one network request (connect, send, read everything; the host name's lookup by the system resolver is bounded by the resolver's own timeouts, not by this) |
/// | ``evaluationFetchTimeout`` | 15 s | all network requests of one evaluation |
/// | ``maxFetchBytes`` | 4 MiB | one fetched body |
/// | ``maxFetchCacheEntries`` | 256 | bodies kept by a ``NetworkAccess`` cache |
/// | ``maxPKCS12Iterations`` | 1,000,000 | one key derivation of a PKCS#12 file (MAC, encrypted content, shrouded key) |
/// | ``maxPKCS12TotalIterations`` | 3,000,000 | all key derivations of one PKCS#12 file |
/// | ``maxSCTsPerList`` | 16 | SCTs in one SignedCertificateTimestampList (certificate extension, OCSP answer, TLS) |
/// | ``maxSCTListBytes`` | 8 KiB | bytes of one SignedCertificateTimestampList |
///
/// Fixed bounds on what a key may be (not configurable: they say which keys certkit verifies with at all; a key
/// beyond them is a fatal `WeakKeySize`, `certkit.spki-encoding`, and signs nothing: no signature is verified with
/// it, as OpenSSL would not verify with it either, whichever backend runs):
///
/// | bound | value | why |
/// |---|---|---|
/// | ``maxRSAModulusBits`` | 16,384 | OpenSSL's `OPENSSL_RSA_MAX_MODULUS_BITS`; GnuTLS (nettle) has no bound |
/// | ``maxRSAExponentBits`` | 64 | OpenSSL's `OPENSSL_RSA_MAX_PUBEXP_BITS` (which it applies above 3,072-bit moduli); GnuTLS has none |
/// | ``maxDSAPrimeBits`` | 10,000 | OpenSSL's `OPENSSL_DSA_MAX_MODULUS_BITS` |
public struct Limits: Sendable, Hashable {
    // MARK: Keys (fixed)

    /// The longest RSA modulus, in bits, certkit verifies with. Verifying costs about the square of the modulus
    /// length times the exponent's length: a 16,384-bit modulus with a 16,383-bit exponent costs GnuTLS about a
    /// second per signature, where a 4,096-bit key with e = 65537 costs microseconds.
    public static let maxRSAModulusBits = 16_384
    /// The longest RSA public exponent, in bits (real keys use 65537, 17 bits). An exponent must also be odd and at
    /// least 3.
    public static let maxRSAExponentBits = 64
    /// The longest DSA prime p, in bits (q must be 160, 224 or 256 bits, FIPS 186-4).
    public static let maxDSAPrimeBits = 10_000


    // MARK: Inputs (parsing bounds: input errors)

    /// The most bytes of one input.
    public var maxInputBytes: Int
    /// The most PEM blocks, of any label, in one input.
    public var maxPEMBlocks: Int
    /// The most certificates in one input.
    public var maxCertificatesPerInput: Int
    /// The most attributes in one distinguished name (over all its RDNs; directory names inside extensions too).
    public var maxAttributesPerName: Int
    /// The most extensions of one certificate or CRL.
    public var maxExtensionsPerCertificate: Int
    /// The most revoked entries of one CRL; also bounds the entries of all CRLs given to one evaluation. (The
    /// backends import a CRL again for their verdict: GnuTLS holds about 1 KB per entry, so 100,000 entries cost
    /// about 100 MB there.)
    public var maxCRLEntries: Int
    /// The most CRLs given to one evaluation (an evaluation bound: each CRL naming an issuer of the path costs a
    /// signature verification).
    public var maxCRLs: Int
    /// The most OCSP responses given to one evaluation (an evaluation bound: each response naming a certificate
    /// of the path costs signature verifications), and the most answers (SingleResponses) and certificates in one
    /// response (parsing bounds).
    public var maxOCSPResponses: Int

    // MARK: Evaluation (fatal ResourceLimit)

    /// The most certificates in the pool: the presented certificates after the leaf plus the extra intermediates,
    /// counting those left out because they do not decode (``TrustEvaluation/skippedCertificates``).
    public var maxPoolCertificates: Int
    /// The most anchors: app anchors, certificates with trust settings and, unless `anchorsOnly`, the system
    /// bundle. (Anchors are prepared eagerly by the OpenSSL backend, each costing a certificate import.)
    public var maxAnchors: Int
    /// The most name comparisons name-constraint checking may need on one candidate path: for each CA with
    /// constraints and each certificate below it, (its names) × (the CA's constraints), summed. OpenSSL and
    /// GnuTLS stop at 2^20 for one certificate and one CA.
    public var maxNameConstraintComparisons: Int
    /// The most nodes certificate-policy processing (RFC 5280 §6.1) may build for one candidate path, over all its
    /// depths. The graph of RFC 9618 (one node per policy and depth, linked to all its parents) grows linearly with
    /// the policies and policy mappings of the path, where RFC 5280's tree can grow exponentially; real paths need
    /// a handful of nodes. Going over makes that path a `ResourceLimit` failure. The graph is built only for a path
    /// that requires an explicit policy (a requireExplicitPolicy in policyConstraints).
    public var maxPolicyGraphNodes: Int

    // MARK: Path building (PathBuildingLimit)

    /// The most certificates in a path, anchor included.
    public var maxDepth: Int
    /// The most partial paths expanded.
    public var maxExpansions: Int
    /// The most candidate paths handed out (each costs the backend one path verification).
    public var maxCandidates: Int
    /// The most partial paths waiting to be expanded.
    public var maxQueued: Int
    /// The most issuer candidates examined over one search (each expansion examines every certificate whose
    /// subject is the issuer name wanted).
    public var maxIssuerComparisons: Int

    /// Creates limits; every parameter defaults to the documented default.
    public init(
        maxInputBytes: Int = 32 << 20, maxPEMBlocks: Int = 10_000, maxCertificatesPerInput: Int = 10_000,
        maxAttributesPerName: Int = 64, maxExtensionsPerCertificate: Int = 64, maxCRLEntries: Int = 100_000,
        maxCRLs: Int = 1_000, maxOCSPResponses: Int = 100, maxPoolCertificates: Int = 10_000, maxAnchors: Int = 1_000,
        maxNameConstraintComparisons: Int = 1 << 20, maxPolicyGraphNodes: Int = 10_000,
        maxDepth: Int = 10, maxExpansions: Int = 2_000, maxCandidates: Int = 32, maxQueued: Int = 20_000,
        maxIssuerComparisons: Int = 1 << 16, maxFetchesPerEvaluation: Int = 8, fetchTimeout: Duration = .seconds(5),
        evaluationFetchTimeout: Duration = .seconds(15), maxFetchBytes: Int = 4 << 20, maxFetchCacheEntries: Int = 256
    ) {
        self.maxFetchesPerEvaluation = maxFetchesPerEvaluation
        self.fetchTimeout = fetchTimeout
        self.evaluationFetchTimeout = evaluationFetchTimeout
        self.maxFetchBytes = maxFetchBytes
        self.maxFetchCacheEntries = maxFetchCacheEntries
        self.maxInputBytes = maxInputBytes
        self.maxPEMBlocks = maxPEMBlocks
        self.maxCertificatesPerInput = maxCertificatesPerInput
        self.maxAttributesPerName = maxAttributesPerName
        self.maxExtensionsPerCertificate = maxExtensionsPerCertificate
        self.maxCRLEntries = maxCRLEntries
        self.maxCRLs = maxCRLs
        self.maxOCSPResponses = maxOCSPResponses
        self.maxPoolCertificates = maxPoolCertificates
        self.maxAnchors = maxAnchors
        self.maxNameConstraintComparisons = maxNameConstraintComparisons
        self.maxPolicyGraphNodes = maxPolicyGraphNodes
        self.maxDepth = maxDepth
        self.maxExpansions = maxExpansions
        self.maxCandidates = maxCandidates
        self.maxQueued = maxQueued
        self.maxIssuerComparisons = maxIssuerComparisons
    }

    // MARK: PKCS#12 (identity import: IdentityError.limitExceeded, an input error)

    /// The largest iteration count of one key derivation of a PKCS#12 file: its MAC (PKCS#12 KDF, or PBKDF2 under
    /// PBMAC1), an encrypted content or a shrouded key (PBKDF2, PKCS#12 KDF or PBES1), checked before the library
    /// derives anything. OpenSSL 3.0 and GnuTLS 3.7 accept any count (up to 2^31 − 1 and 2^32 − 1, which cost them
    /// about 20 minutes); files in use ask for 2,048 (OpenSSL), 2,000 to 10,000 (Windows, Java, macOS), up to
    /// 600,000 (PBKDF2 as OWASP advises): 1,000,000 leaves room for all, at about half a second of work.
    public var maxPKCS12Iterations: Int = 1_000_000
    /// The largest sum of the iteration counts of one PKCS#12 file (every key derivation it asks for): three at
    /// the bound above (the MAC, the certificates, the key), so a file of thousands of encrypted bags cannot
    /// multiply the work.
    public var maxPKCS12TotalIterations: Int = 3_000_000

    // MARK: Certificate Transparency (parsing bounds: a list beyond them is malformed and gives no SCT)

    /// The most SCTs one SignedCertificateTimestampList may hold (real certificates carry two to five).
    public var maxSCTsPerList: Int = 16
    /// The most bytes of one SignedCertificateTimestampList, its two-byte length included (an SCT is about 120
    /// bytes with an ECDSA signature, about 290 with a 2048-bit RSA one).
    public var maxSCTListBytes: Int = 8 << 10

    // MARK: Network (only when an evaluation allows fetching; a bound reached is a failed fetch: no answer)

    /// The most network requests one evaluation makes (cached answers are free).
    public var maxFetchesPerEvaluation: Int
    /// The longest one request may take.
    public var fetchTimeout: Duration
    /// The longest all requests of one evaluation may take together.
    public var evaluationFetchTimeout: Duration
    /// The largest body accepted.
    public var maxFetchBytes: Int
    /// The most bodies a ``NetworkAccess`` cache keeps.
    public var maxFetchCacheEntries: Int

    /// The documented defaults.
    public static let `default` = Limits()
}

extension CertificateDecodingError {
    /// The error for input that exceeds `limit` (named as in ``Limits``), e.g.
    /// `the subject has more than 64 attributes (Limits.maxAttributesPerName)`.
    static func limit(_ what: String, _ limit: String) -> CertificateDecodingError {
        CertificateDecodingError(.limitExceeded, "\(what) (Limits.\(limit))")
    }
}
