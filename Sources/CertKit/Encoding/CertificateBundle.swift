/// The certificates found in one input, detected by content: PEM (any number of blocks), one DER certificate,
/// concatenated DER certificates, or a PKCS#7 certs-only bundle in DER or PEM.
public struct CertificateBundle: Sendable {
    /// The container format that was detected.
    public enum Format: String, Sendable, Hashable {
        case pem
        case der
        case derSequence = "der-sequence"
        case pkcs7DER = "pkcs7-der"
        case pkcs7PEM = "pkcs7-pem"
    }

    /// The certificates, in input order.
    public var certificates: [Certificate]
    /// The detected format.
    public var format: Format
    /// Labels of PEM blocks that are not certificates (e.g. `PRIVATE KEY`); never copied to output.
    public var skippedBlocks: [String]
    /// Human notes about tolerated oddities (e.g. dropped OpenSSL trust info from `TRUSTED CERTIFICATE`).
    public var notes: [String]
    /// The certificate entries that did not parse, when decoded with ``decode(_:limits:skippingUndecodable:)``
    /// (always empty otherwise).
    public var undecodable: [Undecodable] = []

    /// A certificate entry (a PEM certificate block, a PKCS#7 certificate, a DER element) that did not parse.
    public struct Undecodable: Sendable, Hashable {
        /// Its position among the input's certificate entries, decoded or not, from 0.
        public var index: Int
        /// Why, with where it is (e.g. `PEM block 3 (CERTIFICATE): …`).
        public var reason: String

        /// Creates a record.
        package init(index: Int, reason: String) {
            self.index = index
            self.reason = reason
        }
    }

    /// Creates a bundle.
    package init(certificates: [Certificate], format: Format, skippedBlocks: [String] = [], notes: [String] = []) {
        self.certificates = certificates
        self.format = format
        self.skippedBlocks = skippedBlocks
        self.notes = notes
    }

    /// Detects the format of `bytes` and decodes every certificate. Throws when there is no certificate at all
    /// (``CertificateDecodingError/Code/noCertificate`` names what was found instead) or the input is malformed,
    /// and (kind ``CertificateDecodingError/Code/limitExceeded``) when the input exceeds `limits`: more than
    /// ``Limits/maxInputBytes`` bytes, ``Limits/maxPEMBlocks`` PEM blocks or ``Limits/maxCertificatesPerInput``
    /// certificates, or a certificate over a per-certificate bound.
    public static func decode(_ bytes: [UInt8], limits: Limits = .default) throws(CertificateDecodingError) -> CertificateBundle {
        try BundleDecoder.decode(bytes, limits: limits)
    }

    /// Like ``decode(_:limits:)``, but a certificate entry that does not parse (a PEM certificate block, a PKCS#7
    /// certificate, a DER element; a DER CRL alone is still "no certificate found") is listed in ``undecodable``
    /// instead of failing the whole input, for a pool of intermediates where one bad certificate must not abort
    /// the evaluation. The input's bounds (bytes, PEM blocks, certificates: those that do not parse count) and its
    /// framing still throw, and so does an input without a single certificate entry. Entry 0 of a chain is its
    /// leaf: check ``undecodable`` for it.
    public static func decode(
        _ bytes: [UInt8], limits: Limits = .default, skippingUndecodable: Bool
    ) throws(CertificateDecodingError) -> CertificateBundle {
        try BundleDecoder.decode(bytes, limits: limits, skipping: skippingUndecodable)
    }
}
