import Foundation

/// A parsed X.509 CRL (RFC 5280 §5). The core validates a CRL before using it (the revocation check): its
/// signature (verified by the backend), its issuer, its update times and its critical extensions.
public struct CertificateRevocationList: Sendable, Hashable {
    /// The complete DER encoding.
    public let derEncoded: [UInt8]
    /// The signed part (tbsCertList).
    package let tbsBytes: [UInt8]
    /// The outer signatureAlgorithm.
    package let signatureAlgorithm: SignatureAlgorithm
    /// The signature value.
    package let signatureBytes: [UInt8]
    /// True when the tbsCertList's `signature` equals the outer signatureAlgorithm and the signature has no
    /// unused bits.
    package let tbsSignatureAlgorithmMatches: Bool
    /// The CRL issuer.
    public let issuer: DistinguishedName
    /// thisUpdate.
    public let thisUpdate: Date
    /// nextUpdate, when present.
    public let nextUpdate: Date?
    /// Serial numbers (content octets) of revoked certificates.
    package let revokedSerialNumbers: Set<[UInt8]>
    /// authorityKeyIdentifier of the CRL, when present.
    package let authorityKeyIdentifier: [UInt8]?
    /// True when the CRL carries a cRLNumber extension.
    package let hasCRLNumber: Bool
    /// True when the cRLNumber extension is marked critical (RFC 5280 §5.2.3 forbids it).
    package let isCRLNumberCritical: Bool
    /// Critical CRL or entry extensions certkit does not implement (delta CRLs, issuing distribution points,
    /// indirect entries, anything unknown): a CRL with any is not used.
    package let unsupportedCriticalExtensions: [String]

    /// Parses one DER CRL; trailing bytes are an error.
    /// - Throws: ``CertificateDecodingError``; of kind ``CertificateDecodingError/Code/limitExceeded`` for more
    ///   than ``Limits/maxCRLEntries`` entries (or another bound of `limits`).
    public init(derEncoded: [UInt8], limits: Limits = .default) throws(CertificateDecodingError) {
        self = try CRLParser.parse(derEncoded, limits: limits)
    }

    /// Every CRL of a file, read in one place for the command line (`--crl`) and the tests: PEM (`X509 CRL`
    /// blocks; other blocks are ignored) or one DER CRL.
    /// - Throws: ``CertificateDecodingError``: ``CertificateDecodingError/Code/noCertificate`` for PEM without a
    ///   CRL block, ``CertificateDecodingError/Code/empty`` for no bytes, a PEM bound of `limits`
    ///   (``CertificateDecodingError/Code/limitExceeded``), or what a CRL's decoding throws.
    package static func decodeAll(_ bytes: [UInt8], limits: Limits = .default) throws(CertificateDecodingError)
        -> [CertificateRevocationList]
    {
        var blocks: [PEMBlock] = []
        do throws(CertificateDecodingError) {
            blocks = try PEM.decode(bytes, limits: limits)
        } catch where error.code == .limitExceeded {
            throw error
        } catch {
            blocks = []  // not PEM: read as DER below
        }
        if !blocks.isEmpty {
            let crlBlocks = blocks.filter { $0.label == "X509 CRL" }
            guard !crlBlocks.isEmpty else {
                let labels = MessageText.summary(blocks.map(\.label))
                throw CertificateDecodingError(.noCertificate, "no X509 CRL block (found \(labels))")
            }
            return try crlBlocks.map { block throws(CertificateDecodingError) in
                try CertificateRevocationList(derEncoded: block.bytes, limits: limits)
            }
        }
        guard !bytes.isEmpty else { throw CertificateDecodingError(.empty, "empty file") }
        return [try CertificateRevocationList(derEncoded: bytes, limits: limits)]
    }

    init(
        derEncoded: [UInt8], tbsBytes: [UInt8], signatureAlgorithm: SignatureAlgorithm, signatureBytes: [UInt8],
        tbsSignatureAlgorithmMatches: Bool, issuer: DistinguishedName, thisUpdate: Date, nextUpdate: Date?,
        revokedSerialNumbers: Set<[UInt8]>, authorityKeyIdentifier: [UInt8]?, hasCRLNumber: Bool,
        isCRLNumberCritical: Bool = false, unsupportedCriticalExtensions: [String]
    ) {
        self.isCRLNumberCritical = isCRLNumberCritical
        self.derEncoded = derEncoded
        self.tbsBytes = tbsBytes
        self.signatureAlgorithm = signatureAlgorithm
        self.signatureBytes = signatureBytes
        self.tbsSignatureAlgorithmMatches = tbsSignatureAlgorithmMatches
        self.issuer = issuer
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
        self.revokedSerialNumbers = revokedSerialNumbers
        self.authorityKeyIdentifier = authorityKeyIdentifier
        self.hasCRLNumber = hasCRLNumber
        self.unsupportedCriticalExtensions = unsupportedCriticalExtensions
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.derEncoded == rhs.derEncoded }
    public func hash(into hasher: inout Hasher) { hasher.combine(encoding: derEncoded) }
}
