import Foundation

/// A certificate's fields as a backend's crypto library reads them, for cross-checking the core's own parser.
///
/// Everything is reported in a library-neutral form: names as their DER encoding, the serial as the
/// INTEGER's content octets, times as dates, subject alternative names as ``GeneralName`` values, and EC
/// curves by OID. Name forms a library cannot return faithfully are ``GeneralName/other(tag:contents:)``
/// with the context tag and empty contents.
package struct LibraryCertificateFields: Sendable, Hashable {
    /// The public key's algorithm as the library classifies it.
    package enum KeyAlgorithm: Sendable, Hashable, CustomStringConvertible {
        /// RSA (including RSASSA-PSS keys).
        case rsa
        /// An elliptic-curve key (ECDSA/ECDH).
        case ec
        /// Ed25519.
        case ed25519
        /// Ed448.
        case ed448
        /// DSA.
        case dsa
        /// Anything else, with the library's own name for it.
        case other(String)

        package var description: String {
            switch self {
            case .rsa: "RSA"
            case .ec: "EC"
            case .ed25519: "Ed25519"
            case .ed448: "Ed448"
            case .dsa: "DSA"
            case .other(let name): name
            }
        }
    }

    /// The DER encoding of the subject Name.
    package var subjectDER: [UInt8]
    /// The DER encoding of the issuer Name.
    package var issuerDER: [UInt8]
    /// The serial number's content octets (two's complement, big-endian).
    package var serialNumber: [UInt8]
    /// notBefore, to the second.
    package var notBefore: Date
    /// notAfter, to the second.
    package var notAfter: Date
    /// subjectAltName entries in encoding order, nil when the extension is absent.
    package var subjectAlternativeNames: [GeneralName]?
    /// basicConstraints, nil when the extension is absent.
    package var basicConstraints: BasicConstraints?
    /// The public key's algorithm.
    package var keyAlgorithm: KeyAlgorithm
    /// The key size in bits as the library reports it (RSA modulus, EC field, DSA p).
    package var keyBits: Int
    /// The named curve's dotted OID for EC keys, nil otherwise.
    package var curveOID: String?

    /// Creates a value.
    package init(
        subjectDER: [UInt8], issuerDER: [UInt8], serialNumber: [UInt8], notBefore: Date, notAfter: Date,
        subjectAlternativeNames: [GeneralName]?, basicConstraints: BasicConstraints?, keyAlgorithm: KeyAlgorithm,
        keyBits: Int, curveOID: String?
    ) {
        self.subjectDER = subjectDER
        self.issuerDER = issuerDER
        self.serialNumber = serialNumber
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subjectAlternativeNames = subjectAlternativeNames
        self.basicConstraints = basicConstraints
        self.keyAlgorithm = keyAlgorithm
        self.keyBits = keyBits
        self.curveOID = curveOID
    }
}
