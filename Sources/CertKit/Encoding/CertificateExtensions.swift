/// One extension as encoded.
package struct CertificateExtension: Sendable, Hashable {
    /// The dotted OID.
    package let oid: String
    /// The critical flag.
    package let isCritical: Bool
    /// The extnValue OCTET STRING's contents.
    package let value: [UInt8]

    /// Creates an extension.
    package init(oid: String, isCritical: Bool, value: [UInt8]) {
        self.oid = oid
        self.isCritical = isCritical
        self.value = value
    }

    /// A readable name for known OIDs (`basicConstraints`, ...), or nil.
    package var name: String? { ExtensionOID.names[oid] }
}

/// The well-known extension OIDs.
package enum ExtensionOID {
    package static let subjectKeyIdentifier = "2.5.29.14"
    package static let keyUsage = "2.5.29.15"
    package static let subjectAltName = "2.5.29.17"
    package static let basicConstraints = "2.5.29.19"
    package static let nameConstraints = "2.5.29.30"
    package static let crlDistributionPoints = "2.5.29.31"
    package static let certificatePolicies = "2.5.29.32"
    package static let authorityKeyIdentifier = "2.5.29.35"
    package static let extendedKeyUsage = "2.5.29.37"
    package static let authorityInfoAccess = "1.3.6.1.5.5.7.1.1"
    package static let policyConstraints = "2.5.29.36"
    package static let inhibitAnyPolicy = "2.5.29.54"
    package static let policyMappings = "2.5.29.33"
    package static let subjectDirectoryAttributes = "2.5.29.9"
    package static let freshestCRL = "2.5.29.46"
    package static let subjectInfoAccess = "1.3.6.1.5.5.7.1.11"

    /// Names of the OIDs above, for display.
    package static let names: [String: String] = [
        subjectKeyIdentifier: "subjectKeyIdentifier", keyUsage: "keyUsage", subjectAltName: "subjectAltName",
        basicConstraints: "basicConstraints", nameConstraints: "nameConstraints",
        crlDistributionPoints: "cRLDistributionPoints", certificatePolicies: "certificatePolicies",
        authorityKeyIdentifier: "authorityKeyIdentifier", extendedKeyUsage: "extendedKeyUsage",
        authorityInfoAccess: "authorityInfoAccess",
    ]

    /// The extensions certkit understands; a critical extension outside this set is "unknown critical".
    package static let understood: Set<String> = Set(names.keys)
}

/// Extended key usage OIDs.
package enum ExtendedKeyUsageOID {
    package static let serverAuth = "1.3.6.1.5.5.7.3.1"
    package static let clientAuth = "1.3.6.1.5.5.7.3.2"
    package static let codeSigning = "1.3.6.1.5.5.7.3.3"
    package static let emailProtection = "1.3.6.1.5.5.7.3.4"
    package static let timeStamping = "1.3.6.1.5.5.7.3.8"
    package static let ocspSigning = "1.3.6.1.5.5.7.3.9"
    package static let anyExtendedKeyUsage = "2.5.29.37.0"
}

/// basicConstraints.
package struct BasicConstraints: Sendable, Hashable {
    /// cA.
    package let isCA: Bool
    /// pathLenConstraint, when present.
    package let pathLength: Int?

    /// Creates a value.
    package init(isCA: Bool, pathLength: Int?) {
        self.isCA = isCA
        self.pathLength = pathLength
    }
}

/// keyUsage bits (RFC 5280 §4.2.1.3; bit 0 is digitalSignature).
package struct KeyUsage: OptionSet, Sendable, Hashable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    package static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    package static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    package static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    package static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    package static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    package static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    package static let cRLSign = KeyUsage(rawValue: 1 << 6)
    package static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    package static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    /// The names of the set bits, in bit order.
    package var names: [String] {
        let all = ["digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment", "keyAgreement",
                   "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly"]
        return all.indices.filter { rawValue & (1 << $0) != 0 }.map { all[$0] }
    }
}

/// A GeneralName (RFC 5280 §4.2.1.6).
public enum GeneralName: Sendable, Hashable, CustomStringConvertible {
    /// dNSName.
    case dnsName(String)
    /// iPAddress: 4 or 16 bytes in a SAN; 8 or 32 (address + mask) in name constraints.
    case ipAddress([UInt8])
    /// rfc822Name.
    case email(String)
    /// uniformResourceIdentifier.
    case uri(String)
    /// directoryName.
    case directoryName(DistinguishedName)
    /// Any other form, by context tag, with its raw contents.
    case other(tag: UInt8, contents: [UInt8])

    /// The OpenSSL-style display form (`DNS:`, `IP:`, `email:`, `URI:`, `DirName:`, `othername:[tag]`), safe to
    /// print: text values are escaped with `DisplayText/escaped(_:)`, a directory name is its RFC 4514 string
    /// (escaped by the same rule). The raw value is the case's payload.
    public var description: String {
        switch self {
        case .dnsName(let name): "DNS:\(DisplayText.escaped(name))"
        case .ipAddress(let bytes): "IP:\(IPAddressFormatting.string(bytes))"
        case .email(let address): "email:\(DisplayText.escaped(address))"
        case .uri(let uri): "URI:\(DisplayText.escaped(uri))"
        case .directoryName(let name): "DirName:\(name)"
        case .other(let tag, _): "othername:[\(tag)]"
        }
    }
}

/// nameConstraints.
package struct NameConstraints: Sendable, Hashable {
    /// permittedSubtrees bases.
    package let permitted: [GeneralName]
    /// excludedSubtrees bases.
    package let excluded: [GeneralName]

    /// Creates a value.
    package init(permitted: [GeneralName], excluded: [GeneralName]) {
        self.permitted = permitted
        self.excluded = excluded
    }
}

/// policyConstraints (RFC 5280 §4.2.1.11).
package struct PolicyConstraints: Sendable, Hashable {
    /// requireExplicitPolicy (SkipCerts), when present.
    package let requireExplicitPolicy: Int?
    /// inhibitPolicyMapping (SkipCerts), when present.
    package let inhibitPolicyMapping: Int?

    /// Creates a value.
    package init(requireExplicitPolicy: Int?, inhibitPolicyMapping: Int?) {
        self.requireExplicitPolicy = requireExplicitPolicy
        self.inhibitPolicyMapping = inhibitPolicyMapping
    }
}

/// One entry of policyMappings (RFC 5280 §4.2.1.5): the issuer's policy `issuerDomainPolicy` is considered
/// equivalent to the subject's policy `subjectDomainPolicy`.
package struct PolicyMapping: Sendable, Hashable {
    /// issuerDomainPolicy, dotted.
    package let issuerDomainPolicy: String
    /// subjectDomainPolicy, dotted.
    package let subjectDomainPolicy: String

    /// Creates a value.
    package init(issuerDomainPolicy: String, subjectDomainPolicy: String) {
        self.issuerDomainPolicy = issuerDomainPolicy
        self.subjectDomainPolicy = subjectDomainPolicy
    }
}

/// One authorityInfoAccess entry.
package struct AccessDescription: Sendable, Hashable {
    /// accessMethod OID (`1.3.6.1.5.5.7.48.1` OCSP, `1.3.6.1.5.5.7.48.2` caIssuers).
    package let method: String
    /// accessLocation.
    package let location: GeneralName

    /// Creates a value.
    package init(method: String, location: GeneralName) {
        self.method = method
        self.location = location
    }
}

/// All extensions of a certificate: the raw list, the decoded known ones, and what was wrong.
package struct CertificateExtensions: Sendable, Hashable {
    /// Every extension in encoding order, known or not.
    package var all: [CertificateExtension] = []
    /// OIDs that occur more than once (RFC 5280 forbids it).
    package var duplicates: [String] = []
    /// OIDs of known extensions whose value could not be decoded.
    package var malformed: [String] = []
    /// OIDs of the extensions decoded only for policy processing (policyConstraints, policyMappings,
    /// inhibitAnyPolicy) whose value could not be decoded (trustd's `UnparseableExtension`).
    package var unparseable: [String] = []
    /// OIDs of the extensions that write `critical FALSE` out (the DEFAULT value, which DER leaves out).
    package var criticalFalseEncoded: [String] = []

    package var basicConstraints: BasicConstraints?
    package var keyUsage: KeyUsage?
    /// extendedKeyUsage purpose OIDs, when the extension is present.
    package var extendedKeyUsage: [String]?
    /// subjectAltName entries, when the extension is present.
    package var subjectAlternativeNames: [GeneralName]?
    package var nameConstraints: NameConstraints?
    /// authorityKeyIdentifier keyIdentifier, when present.
    package var authorityKeyIdentifier: [UInt8]?
    /// True when authorityKeyIdentifier carries authorityCertIssuer or authorityCertSerialNumber.
    package var authorityKeyIdentifierNamesIssuer = false
    package var subjectKeyIdentifier: [UInt8]?
    /// cRLDistributionPoints full names (usually URIs).
    package var crlDistributionPoints: [GeneralName] = []
    package var authorityInfoAccess: [AccessDescription] = []
    /// certificatePolicies policy OIDs, in encoding order (repeats kept: RFC 5280 §4.2.1.4 forbids them, and
    /// the policy rules report them).
    package var certificatePolicies: [String] = []
    /// policyMappings, when present and decodable.
    package var policyMappings: [PolicyMapping]?
    /// policyConstraints, when present and decodable.
    package var policyConstraints: PolicyConstraints?
    /// inhibitAnyPolicy SkipCerts, when present and decodable.
    package var inhibitAnyPolicy: Int?

    /// Creates an empty set of extensions.
    package init() {}

    /// The extension `oid` as encoded (the first one when repeated), or nil.
    package func first(_ oid: String) -> CertificateExtension? { all.first { $0.oid == oid } }

    /// Critical extensions certkit does not understand.
    package var unknownCritical: [CertificateExtension] {
        all.filter { $0.isCritical && !ExtensionOID.understood.contains($0.oid) }
    }
}
