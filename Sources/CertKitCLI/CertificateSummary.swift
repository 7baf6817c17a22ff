import CertKit
import Foundation

/// Everything `certkit inspect` shows about one certificate, computed once and rendered as text or JSON.
/// Digests come from the selected backend, so both backends are exercised and must agree byte for byte.
///
/// Every string is safe to print as it is (``DisplayText``): subject and issuer are RFC 4514 strings and
/// subject alternative names ``GeneralName`` display forms, both escaped by that rule; every other text that
/// comes from the certificate or the command line (file name, algorithm and usage names, OIDs) is passed
/// through ``DisplayText/escaped(_:)`` here, once, so neither renderer has to.
struct CertificateSummary: Equatable {
    struct Key: Equatable {
        var algorithm: String
        var bits: Int?
        var curve: String?
    }

    struct Extension: Equatable {
        var oid: String
        var name: String?
        var critical: Bool
    }

    var index: Int
    var file: String
    var subject: String
    var issuer: String
    var serial: String
    var notBefore: Date
    var notAfter: Date
    var status: String
    var subjectAltNames: [String]
    var publicKey: Key
    var signatureAlgorithm: String
    var basicConstraints: BasicConstraints?
    var keyUsage: [String]?
    var extendedKeyUsage: [String]?
    var extensions: [Extension]
    var sha256: [UInt8]
    var sha1: [UInt8]
    var spkiSHA256: [UInt8]

    /// Summarizes `certificate` as of `date`, with digests from `backend`.
    init(
        _ certificate: Certificate, index: Int, file: String, at date: Date, backend: any TrustBackend
    ) throws(CLIError) {
        self.index = index
        self.file = DisplayText.escaped(file)
        subject = NameText.display(certificate.subject)
        issuer = NameText.display(certificate.issuer)
        serial = HexText.colonLowercase(certificate.serialNumber)
        notBefore = certificate.notBefore
        notAfter = certificate.notAfter
        status = date < certificate.notBefore ? "not yet valid" : date > certificate.notAfter ? "expired" : "valid"
        subjectAltNames = (certificate.extensions.subjectAlternativeNames ?? []).map(\.description)
        publicKey = Self.key(certificate.publicKey.algorithm)
        signatureAlgorithm = DisplayText.escaped(certificate.signatureAlgorithm.name)
        basicConstraints = certificate.extensions.basicConstraints
        keyUsage = certificate.extensions.keyUsage?.names
        extendedKeyUsage = certificate.extensions.extendedKeyUsage?.map { DisplayText.escaped(OIDNames.extendedKeyUsage($0)) }
        extensions = certificate.extensions.all.map {
            Extension(oid: DisplayText.escaped($0.oid), name: OIDNames.extension($0.oid), critical: $0.isCritical)
        }
        do {
            sha256 = try backend.digest(.sha256, of: certificate.derEncoded)
            sha1 = try backend.digest(.sha1, of: certificate.derEncoded)
            spkiSHA256 = try backend.digest(.sha256, of: certificate.publicKey.derEncoded)
        } catch {
            throw .backend(name: backend.name, problem: "digest failed: \(error.message)")
        }
    }

    /// `sha256/BASE64` of the SubjectPublicKeyInfo.
    var spkiPin: String { SPKIPin(digest: spkiSHA256).description }

    private static func key(_ algorithm: PublicKeyInfo.Algorithm) -> Key {
        switch algorithm {
        case .rsa(let bits): Key(algorithm: "RSA", bits: bits, curve: nil)
        case .ec(let curve, let bits): Key(algorithm: "EC", bits: bits, curve: DisplayText.escaped(curve))
        case .ed25519: Key(algorithm: "Ed25519", bits: 256, curve: nil)
        case .ed448: Key(algorithm: "Ed448", bits: 448, curve: nil)
        case .dsa(let bits): Key(algorithm: "DSA", bits: bits == 0 ? nil : bits, curve: nil)
        case .other(let oid): Key(algorithm: DisplayText.escaped(oid), bits: nil, curve: nil)
        }
    }
}
