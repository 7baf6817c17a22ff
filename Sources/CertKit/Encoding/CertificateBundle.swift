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

    /// Creates a bundle.
    public init(certificates: [Certificate], format: Format, skippedBlocks: [String] = [], notes: [String] = []) {
        self.certificates = certificates
        self.format = format
        self.skippedBlocks = skippedBlocks
        self.notes = notes
    }

    /// Detects the format of `bytes` and decodes every certificate. Throws when there is no certificate at all
    /// (``CertificateDecodingError/Kind/noCertificate`` names what was found instead) or the input is malformed,
    /// and (kind ``CertificateDecodingError/Kind/limitExceeded``) when the input exceeds `limits`: more than
    /// ``Limits/maxInputBytes`` bytes, ``Limits/maxPEMBlocks`` PEM blocks or ``Limits/maxCertificatesPerInput``
    /// certificates, or a certificate over a per-certificate bound.
    public static func decode(_ bytes: [UInt8], limits: Limits = .default) throws(CertificateDecodingError) -> CertificateBundle {
        try BundleDecoder.decode(bytes, limits: limits)
    }
}
