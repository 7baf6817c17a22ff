import CertKit

/// Display names for OIDs the core does not name itself.
enum OIDNames {
    /// Extended key usage purposes, named as OpenSSL's short names.
    static let extendedKeyUsages: [String: String] = [
        ExtendedKeyUsageOID.serverAuth: "serverAuth",
        ExtendedKeyUsageOID.clientAuth: "clientAuth",
        ExtendedKeyUsageOID.codeSigning: "codeSigning",
        ExtendedKeyUsageOID.emailProtection: "emailProtection",
        ExtendedKeyUsageOID.timeStamping: "timeStamping",
        ExtendedKeyUsageOID.ocspSigning: "OCSPSigning",
        ExtendedKeyUsageOID.anyExtendedKeyUsage: "anyExtendedKeyUsage",
        "1.3.6.1.5.5.7.3.5": "ipsecEndSystem",
        "1.3.6.1.5.5.7.3.6": "ipsecTunnel",
        "1.3.6.1.5.5.7.3.7": "ipsecUser",
        "1.3.6.1.4.1.311.10.3.3": "msSGC",
        "2.16.840.1.113730.4.1": "nsSGC",
    ]

    /// Extensions beyond ``ExtensionOID/names``.
    static let extraExtensions: [String: String] = [
        "2.5.29.18": "issuerAltName",
        "2.5.29.9": "subjectDirectoryAttributes",
        "2.5.29.33": "policyMappings",
        "2.5.29.36": "policyConstraints",
        "2.5.29.46": "freshestCRL",
        "2.5.29.54": "inhibitAnyPolicy",
        "1.3.6.1.5.5.7.1.11": "subjectInfoAccess",
        "1.3.6.1.5.5.7.1.24": "tlsFeature",
        "1.3.6.1.5.5.7.48.1.5": "ocspNoCheck",
        "1.3.6.1.4.1.11129.2.4.2": "ctPrecertificateSCTs",
        "1.3.6.1.4.1.11129.2.4.3": "ctPrecertificatePoison",
        "2.16.840.1.113730.1.1": "nsCertType",
        "2.16.840.1.113730.1.13": "nsComment",
    ]

    /// The name of an EKU purpose, or its OID.
    static func extendedKeyUsage(_ oid: String) -> String { extendedKeyUsages[oid] ?? oid }

    /// The name of an extension, or nil when unknown.
    static func `extension`(_ oid: String) -> String? { ExtensionOID.names[oid] ?? extraExtensions[oid] }
}
