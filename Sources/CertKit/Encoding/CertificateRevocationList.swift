import Foundation

/// A parsed X.509 CRL (RFC 5280 §5). Signature verification is the backend's job; the core uses the
/// issuer, the update times and the revoked serials.
public struct CertificateRevocationList: Sendable, Hashable {
    /// The complete DER encoding.
    public let derEncoded: [UInt8]
    /// The CRL issuer.
    public let issuer: DistinguishedName
    /// thisUpdate.
    public let thisUpdate: Date
    /// nextUpdate, when present.
    public let nextUpdate: Date?
    /// Serial numbers (content octets) of revoked certificates.
    public let revokedSerialNumbers: Set<[UInt8]>
    /// authorityKeyIdentifier of the CRL, when present.
    public let authorityKeyIdentifier: [UInt8]?

    /// Parses one DER CRL; trailing bytes are an error.
    public init(derEncoded: [UInt8]) throws(CertificateDecodingError) {
        self = try X509Parser.parseCRL(derEncoded)
    }

    init(derEncoded: [UInt8], issuer: DistinguishedName, thisUpdate: Date, nextUpdate: Date?,
         revokedSerialNumbers: Set<[UInt8]>, authorityKeyIdentifier: [UInt8]?) {
        self.derEncoded = derEncoded
        self.issuer = issuer
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
        self.revokedSerialNumbers = revokedSerialNumbers
        self.authorityKeyIdentifier = authorityKeyIdentifier
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.derEncoded == rhs.derEncoded }
    public func hash(into hasher: inout Hasher) { derEncoded.withUnsafeBytes { hasher.combine(bytes: $0) } }
}
