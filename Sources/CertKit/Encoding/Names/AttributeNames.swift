/// OpenSSL-style short names for attribute types, as used in RFC 4514 strings.
package enum AttributeNames {
    /// Short name by dotted OID.
    package static let shortNames: [String: String] = [
        "2.5.4.3": "CN", "2.5.4.4": "SN", "2.5.4.5": "serialNumber", "2.5.4.6": "C", "2.5.4.7": "L",
        "2.5.4.8": "ST", "2.5.4.9": "street", "2.5.4.10": "O", "2.5.4.11": "OU", "2.5.4.12": "title",
        "2.5.4.13": "description", "2.5.4.15": "businessCategory", "2.5.4.17": "postalCode",
        "2.5.4.41": "name", "2.5.4.42": "GN", "2.5.4.43": "initials", "2.5.4.44": "generationQualifier",
        "2.5.4.45": "x500UniqueIdentifier", "2.5.4.46": "dnQualifier", "2.5.4.65": "pseudonym",
        "2.5.4.97": "organizationIdentifier",
        "1.2.840.113549.1.9.1": "emailAddress",
        "0.9.2342.19200300.100.1.25": "DC", "0.9.2342.19200300.100.1.1": "UID",
        "1.3.6.1.4.1.311.60.2.1.1": "jurisdictionL", "1.3.6.1.4.1.311.60.2.1.2": "jurisdictionST",
        "1.3.6.1.4.1.311.60.2.1.3": "jurisdictionC",
    ]

    /// The short name for `oid`, or the dotted OID itself.
    package static func name(for oid: String) -> String { shortNames[oid] ?? oid }
}
